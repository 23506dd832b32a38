import net from "node:net";

/** Asks the OS for a free loopback TCP port (used when a caller passes port 0 to a tool that can't). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Raised when a fixed port (dev mode, or one a caller asked for) is already taken; `port` and `service` say which. */
export class PortInUseError extends Error {
  constructor(service, port) {
    super(
      `Port ${port} (${service}) is already in use. Stop whatever is using it (e.g. \`ss -ltnp 'sport = :${port}'\`) and retry.`,
    );
    this.name = "PortInUseError";
    this.service = service;
    this.port = port;
  }
}

/** Whether nothing listens on `port` (checked on the IPv4 loopback and on all interfaces, as Vite might bind either). */
export async function portIsFree(port) {
  for (const host of ["127.0.0.1", "0.0.0.0"]) {
    const free = await new Promise((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
    if (!free) return false;
  }
  return true;
}
