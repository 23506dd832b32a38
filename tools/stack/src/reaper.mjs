// A watchdog that outlives a crash of the stack's parent process. The parent spawns it with a stdin pipe and
// writes the process-group id of every child it starts; when that pipe closes — the parent exited, crashed or
// was SIGKILLed — the reaper kills those groups so no server or Vite is left holding a port.
// Run: node reaper.mjs   (stdin lines: "+<pgid>" watch a process group, "-<pgid>" forget it, "=<pid>" watch one
// process that shares our group, e.g. Postgres; "!<dir>" a temp dir to delete)
import { rmSync } from "node:fs";

const groups = new Set();
const singles = new Set();
const dirs = new Set();
let buffer = "";

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let newline = buffer.indexOf("\n");
  while (newline >= 0) {
    const line = buffer.slice(0, newline).trim();
    buffer = buffer.slice(newline + 1);
    if (line.startsWith("!")) dirs.add(line.slice(1));
    const pid = Number(line.slice(1));
    if (Number.isInteger(pid) && pid > 1) {
      if (line.startsWith("+")) groups.add(pid);
      else if (line.startsWith("-")) groups.delete(pid);
      else if (line.startsWith("=")) singles.add(pid);
    }
    newline = buffer.indexOf("\n");
  }
});

function reap() {
  const targets = [...[...groups].map((pid) => -pid), ...singles];
  for (const target of targets) {
    try {
      // Postgres gets SIGINT (fast shutdown, removes its pid file); the rest cannot clean up anything we need.
      process.kill(target, target > 0 ? "SIGINT" : "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  // Give the killed processes a moment to let go of their files.
  setTimeout(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }, 300);
}
process.stdin.on("end", reap);
process.stdin.on("close", reap);
// The parent's Ctrl-C reaches the whole foreground group; the reaper must stay until the pipe closes.
process.on("SIGINT", () => {});
process.on("SIGTERM", reap);
