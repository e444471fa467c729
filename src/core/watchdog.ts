// A host that is SIGKILLed (or OOM-killed, or lost with its container's init) runs no exit hook, and
// every CLI it started would live on. One small `sh` per host covers that: it reads a pipe whose
// other end only the host holds, and the host tells it the process groups and temp directories it
// has live. When the pipe ends — the host is gone, however it ended — it stops those groups and the
// trees below their leaders (tool commands in a session of their own included, as abort does),
// removes the directories, and exits. A run costs it a few short pipe writes. The shell is started
// once, right after the first spawn it is to watch: the host idles while the CLI starts, and two
// forks in a row cost one round of copy-on-write faults in the host where a fork a tick later costs
// a second one, in the middle of the first output (docs/performance.md).
// POSIX sh, ps/awk where there is no /proc; not on Windows.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Writable } from 'node:stream';

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
  if [ -r /proc/self/stat ]; then
    set +f
    for f in /proc/[0-9]*/stat; do
      read -r s < "$f" 2>/dev/null || continue
      p=\${f#/proc/}
      set -- \${s##*) }
      [ "$1" = Z ] || echo "\${p%/stat} $2 $3"
    done
    set -f
  else
    ps -A -o pid= -o ppid= -o pgid= -o stat= | awk '$4 !~ /^Z/ { print $1, $2, $3 }'
  fi
}
members() {
  table | awk -v seeds="$groups" '
    BEGIN { n = split(seeds, s, " "); for (i = 1; i <= n; i++) g[s[i]] = 1 }
    { pid[NR] = $1; ppid[NR] = $2; if (($3 in g) || ($1 in g)) m[$1] = 1 }
    END {
      do { added = 0; for (i = 1; i <= NR; i++) if (!(pid[i] in m) && (ppid[i] in m)) { m[pid[i]] = 1; added = 1 } } while (added)
      for (p in m) print p
    }'
}
signal() {
  for g in $groups; do kill -s "$1" -- "-$g" 2>/dev/null; done
  for p in $pids; do kill -s "$1" "$p" 2>/dev/null; done
}
if [ -n "$groups" ]; then
  pids=$(members)
  signal TERM
  i=0
  while [ $i -lt 10 ]; do
    sleep 0.1 2>/dev/null || sleep 1
    alive=
    for p in $pids; do kill -s 0 "$p" 2>/dev/null && alive=1; done
    [ -z "$alive" ] && break
    i=$((i + 1))
  done
  signal KILL
fi
IFS=$nl
for d in $dirs; do rm -rf -- "$d"; done
`;

type Watchdog = ChildProcessByStdio<Writable, null, null>;

const groups = new Set<number>();
const dirs = new Set<string>();
let watchdog: Watchdog | undefined;
let starting = false;
/** No shell to start (or it failed): the exit hooks alone remain. */
let unavailable = process.platform === 'win32';

function start(): void {
  starting = false;
  if (unavailable || watchdog) return;
  let child: Watchdog;
  try {
    // Its own session: a terminal's Ctrl-C or a signal to the host's group does not reach it.
    // The script comes through the environment, so `ps` shows a short command line.
    child = spawn('/bin/sh', ['-c', 'eval "$CODERLINE_WATCHDOG"'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      cwd: '/',
      env: { CODERLINE_WATCHDOG: SCRIPT, PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
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

function tell(line: string): void {
  if (unavailable) return;
  if (watchdog) watchdog.stdin.write(`${line}\n`);
  else if (!starting) {
    starting = true;
    setImmediate(start).unref();
  }
}

/** Has the watchdog stop this group (and the tree below its leader) if the host vanishes. */
export function watchGroup(pgid: number): void {
  groups.add(pgid);
  if (watchdog || unavailable) tell(`+g ${pgid}`);
  else start();
}

export function unwatchGroup(pgid: number): void {
  if (groups.delete(pgid)) tell(`-g ${pgid}`);
}

/** Has the watchdog remove this directory if the host vanishes (a path with a line break is not passed). */
export function watchDir(path: string): void {
  if (/[\n\r]/.test(path)) return;
  dirs.add(path);
  tell(`+d ${path}`);
}

export function unwatchDir(path: string): void {
  if (dirs.delete(path)) tell(`-d ${path}`);
}
