// A host that is SIGKILLed (or OOM-killed, or lost with its container's init) runs no exit hook, and
// every CLI it started would live on. One small `sh` per host covers that: it reads a pipe whose
// other end only the host holds, and the host tells it the process groups and temp directories it
// has live. When the pipe ends — the host is gone, however it ended — it stops those groups and the
// trees below their leaders (tool commands in a session of their own included, frozen before each
// signal as abort freezes them, so none forks past it), removes the directories, and exits. A run
// costs it a few short pipe writes. The shell is started once, right after the first spawn it is
// to watch: the host idles while the CLI starts, and two forks in a row cost one round of
// copy-on-write faults in the host where a fork a tick later costs a second one, in the middle of
// the first output (docs/performance.md). A temp dir made before that spawn (a run writes its files
// first) waits for it rather than fork on the run's way to the spawn; at most DIR_ALONE_MS.
// POSIX sh, ps/awk where there is no /proc; not on Windows.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Writable } from 'node:stream';
import { processTableSource } from './process-table.js';

const SCRIPT = `
trap '' INT HUP TERM QUIT PIPE
set -f
nl='
'
groups=
dirs=
without() { kept=; IFS=$2; for x in $1; do [ "$x" = "$3" ] || kept="$kept$2$x"; done; unset IFS; }
while IFS= read -r line; do
  case $line in
    '+g '*) groups="$groups \${line#+g }" ;;
    '-g '*) without "$groups" ' ' "\${line#-g }"; groups=$kept ;;
    '+d '*) dirs="$dirs$nl\${line#+d }" ;;
    '-d '*) without "$dirs" "$nl" "\${line#-d }"; dirs=$kept ;;
  esac
done
table() {
  if [ "$CODERLINE_PROCESS_TABLE" != ps ] && [ -r /proc/self/stat ]; then
    set +f
    for f in /proc/[0-9]*/stat; do
      { read -r s < "$f"; } 2>/dev/null || continue
      p=\${f#/proc/}
      set -- \${s##*) }
      [ "$1" = Z ] || echo "\${p%/stat} $2 $3 $1"
    done
    set -f
  else
    ps -A -o pid= -o ppid= -o pgid= -o stat= | awk '$4 !~ /^Z/ { print $1, $2, $3, substr($4, 1, 1) }'
  fi
}
# Every live process of the groups, below their leaders, or below a process found before (init
# adopts a dead parent's children): "pid g" for one in a watched group, else "pid <state>".
tree() {
  table | awk -v seeds="$groups" -v known="$known" '
    BEGIN {
      n = split(seeds, s, " "); for (i = 1; i <= n; i++) g[s[i]] = 1
      n = split(known, k, " "); for (i = 1; i <= n; i++) m[k[i]] = 1
    }
    { pid[NR] = $1; ppid[NR] = $2; pg[$1] = $3; st[$1] = $4; if (($3 in g) || ($1 in g)) m[$1] = 1 }
    END {
      do { added = 0; for (i = 1; i <= NR; i++) if (!(pid[i] in m) && (ppid[i] in m)) { m[pid[i]] = 1; added = 1 } } while (added)
      for (p in m) if (p in st) print p, ((pg[p] in g) ? "g" : st[p])
    }'
}
# One read of the table: live (all found), escaped (those outside the groups), moving (escaped, not stopped).
look() {
  set -- $(tree)
  live=
  escaped=
  moving=
  while [ $# -gt 1 ]; do
    live="$live $1"
    case "$known " in *" $1 "*) ;; *) known="$known $1" ;; esac
    if [ "$2" != g ]; then
      escaped="$escaped $1"
      [ "$2" = T ] || moving="$moving $1"
    fi
    shift 2
  done
}
# A process that left the groups could fork between the read and the signal, and init would adopt a
# child nothing finds again: each one found is stopped, and the table read again until every one
# found is stopped (a stopped process forks nothing). One that never stops ends the wait at 20 reads.
freeze() {
  sent=
  i=0
  while [ $i -lt 20 ]; do
    look
    [ -z "$moving" ] && return
    for p in $moving; do
      case "$sent " in *" $p "*) ;; *) sent="$sent $p"; kill -s STOP "$p" 2>/dev/null ;; esac
    done
    i=$((i + 1))
  done
}
# One group signal reaches all of a group at once; the frozen act on theirs as soon as they go on.
stop() {
  freeze
  for g in $groups; do kill -s "$1" -- "-$g" 2>/dev/null; done
  for p in $escaped; do kill -s "$1" "$p" 2>/dev/null; kill -s CONT "$p" 2>/dev/null; done
}
known=
if [ -n "$groups" ]; then
  stop TERM
  i=0
  while [ $i -lt 10 ]; do
    sleep 0.1 2>/dev/null || sleep 1
    look
    [ -z "$live" ] && break
    i=$((i + 1))
  done
  stop KILL
fi
IFS=$nl
for d in $dirs; do rm -rf -- "$d"; done
`;

type Watchdog = ChildProcessByStdio<Writable, null, null>;

const groups = new Set<number>();
const dirs = new Set<string>();
let watchdog: Watchdog | undefined;
/** A dir registered with no spawn yet: the spawn that follows starts the watchdog, else this timer. */
let startLater: NodeJS.Timeout | undefined;
const DIR_ALONE_MS = 1_000;
/** No shell to start (or it failed): the exit hooks alone remain. */
let unavailable = process.platform === 'win32';

function start(): void {
  clearTimeout(startLater);
  startLater = undefined;
  if (unavailable || watchdog || (groups.size === 0 && dirs.size === 0)) return;
  let child: Watchdog;
  try {
    // Its own session: a terminal's Ctrl-C or a signal to the host's group does not reach it.
    // The script comes through the environment, so `ps` shows a short command line.
    child = spawn('/bin/sh', ['-c', 'eval "$CODERLINE_WATCHDOG"'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      cwd: '/',
      env: { CODERLINE_WATCHDOG: SCRIPT, CODERLINE_PROCESS_TABLE: processTableSource().name, PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    });
  } catch {
    unavailable = true;
    return;
  }
  child.on('error', () => {
    unavailable = true;
  });
  child.stdin.on('error', () => {});
  child.once('exit', () => {
    if (watchdog === child) watchdog = undefined;
  });
  // Neither the process nor its pipe keeps the host's event loop alive.
  child.unref();
  (child.stdin as Writable & { unref?(): void }).unref?.();
  watchdog = child;
  child.stdin.write([...[...groups].map((pgid) => `+g ${pgid}\n`), ...[...dirs].map((dir) => `+d ${dir}\n`)].join(''));
}

/** Tells a running watchdog one change; one that starts later is sent everything live then. */
function send(line: string): boolean {
  watchdog?.stdin.write(`${line}\n`);
  return watchdog !== undefined;
}

/** Has the watchdog stop this group (and the tree below its leader) if the host vanishes. */
export function watchGroup(pgid: number): void {
  groups.add(pgid);
  if (!send(`+g ${pgid}`)) start();
}

export function unwatchGroup(pgid: number): void {
  if (groups.delete(pgid)) send(`-g ${pgid}`);
}

/** Has the watchdog remove this directory if the host vanishes (a path with a line break is not passed). */
export function watchDir(path: string): void {
  if (/[\n\r]/.test(path)) return;
  dirs.add(path);
  if (!send(`+d ${path}`) && !unavailable) startLater ??= setTimeout(start, DIR_ALONE_MS).unref();
}

export function unwatchDir(path: string): void {
  if (dirs.delete(path)) send(`-d ${path}`);
}
