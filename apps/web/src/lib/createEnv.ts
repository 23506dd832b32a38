import type { Validator } from "./validators";

/** Thrown when reading a server-only variable in the browser (spec §5, §8). */
export const SERVER_VARIABLE_ON_CLIENT_MESSAGE =
  "Attempted to access a server-side environment variable on the client";

type Schema = Record<string, Validator<unknown>>;
type Parsed<S extends Schema> = { [K in keyof S]: S[K] extends Validator<infer T> ? T : never };

/** Options of {@link createEnv}. */
export interface CreateEnvOptions<Server extends Schema, Client extends Schema> {
  /** Variables only the server may read; never validated or readable in the browser. */
  server: Server;
  /** Variables exposed to the browser; their names must start with `clientPrefix`. */
  client: Client;
  clientPrefix: string;
  /** The raw values, e.g. `import.meta.env`. Empty strings count as unset. */
  runtimeEnv: Record<string, unknown>;
  /** Default: no `window`. */
  isServer?: boolean;
}

/**
 * Validates the environment once, at start-up (t3-env style). Throws an Error starting with
 * 'Invalid environment variables' that names every bad variable.
 */
export function createEnv<Server extends Schema, Client extends Schema>(
  options: CreateEnvOptions<Server, Client>,
): Readonly<Parsed<Server> & Parsed<Client>> {
  const isServer = options.isServer ?? typeof window === "undefined";
  for (const key of Object.keys(options.client)) {
    if (!key.startsWith(options.clientPrefix)) {
      throw new Error(`Client environment variable ${key} must start with ${options.clientPrefix}`);
    }
  }
  const schema: Schema = isServer ? { ...options.server, ...options.client } : options.client;
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, validate] of Object.entries(schema)) {
    const raw = options.runtimeEnv[key];
    const check = validate(typeof raw === "string" && raw.trim() !== "" ? raw.trim() : undefined);
    if (check.ok) values[key] = check.value;
    else problems.push(`${key} ${check.reason}`);
  }
  if (problems.length > 0) throw new Error(`Invalid environment variables: ${problems.join("; ")}`);

  return new Proxy(values, {
    get(target, key) {
      if (typeof key === "string" && !isServer && key in options.server) {
        throw new Error(SERVER_VARIABLE_ON_CLIENT_MESSAGE);
      }
      return Reflect.get(target, key);
    },
  }) as Parsed<Server> & Parsed<Client>;
}
