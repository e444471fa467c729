// The events of one type from a list (live events or a translator's output), typed as that type.
export function ofType<E extends { type: string }, T extends E['type']>(events: readonly E[] | undefined, type: T): Extract<E, { type: T }>[] {
  return (events ?? []).filter((event): event is Extract<E, { type: T }> => event.type === type);
}
