/**
 * A function of a module loaded on first call (`load` is a dynamic `import()`), so bundlers keep the
 * module out of the initial bundle: the main entry only holds this small wrapper.
 */
export function lazyExport<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  // biome-ignore lint/suspicious/noExplicitAny: forwards any argument list unchanged.
  return (async (...args: any[]) => ((await load())[name] as (...a: any[]) => unknown)(...args)) as M[K];
}
