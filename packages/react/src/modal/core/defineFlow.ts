import type { Client } from "@symbolon/core";
import type { LoginScreenContext, ScreenContext } from "../screenContext";
import type { FlowScreens, ScreenBase, ScreenEntries } from "../screenEntry";
import type { ModalCore } from "./createModalCore";

/** What a flow is created with: the modal core, the client, and the other flows it builds on. */
export interface FlowDeps {
  core: ModalCore;
  client: Client;
  /** The flow `definition` creates, in this modal (created on first use, once). */
  use<Instance>(definition: { create?(deps: FlowDeps): Instance }): Instance;
}

/**
 * Where a flow's screens are: a module of their entries, loaded with the modal that shows them (a
 * chunk of its own, never in the initial bundle). `State` is their states: the modal's screen union
 * is made of them.
 */
export interface ScreensLoader<State extends ScreenBase> {
  /** Set when they show in the wallet modal: the flow (kind) the wallet modal is mounted for. */
  walletFlow?: State["flow"];
  load(): Promise<{ default: ScreenEntries }>;
}

/**
 * One flow of the modal, as `FLOWS` lists it: what creates it with the controller (in the initial
 * bundle: what opens it, what it keeps, how it reports), which of its members the controller offers
 * the hooks, and where its screens are.
 */
export interface FlowDefinition<
  Instance = unknown,
  Exposed extends string = never,
  State extends ScreenBase = never,
> {
  create?(deps: FlowDeps): Instance;
  /** The members of the flow the controller offers the hooks, by name (one the flow lacks is not offered). */
  exposes?: readonly Exposed[];
  screens?: ScreensLoader<State>;
}

/** Defines a flow: only types it (what it creates, exposes and shows). */
export const defineFlow = <
  Instance = undefined,
  Exposed extends string = never,
  State extends ScreenBase = never,
>(
  definition: FlowDefinition<Instance, Exposed, State>,
): FlowDefinition<Instance, Exposed, State> => definition;

/**
 * The screens of `State` in the login modal, from the module `load` brings; `Layer` names those the
 * modal shows over no screen itself (the MFA verification alone), which have no entry.
 */
export const loginModalScreens = <State extends ScreenBase, Layer extends State["screen"] = never>(
  load: () => Promise<{ default: FlowScreens<State, LoginScreenContext, Layer> }>,
): ScreensLoader<State> => ({ load });

/**
 * The screens of `State` in the wallet modal (its own chunk: pages that only log in never load it),
 * which the provider mounts while the flow `flow` is open.
 */
export const walletModalScreens = <State extends ScreenBase>(
  flow: State["flow"],
  load: () => Promise<{ default: FlowScreens<State, ScreenContext> }>,
): ScreensLoader<State> => ({ walletFlow: flow, load });

/** What a flow definition creates. */
export type InstanceOf<Definition> = Definition extends { create?(deps: FlowDeps): infer Instance }
  ? Instance
  : never;

/** What a flow definition offers the hooks. */
export type ExposedOf<Definition> = Definition extends {
  create?(deps: FlowDeps): infer Instance;
  exposes?: readonly (infer Name)[];
}
  ? Pick<Instance, Name & keyof Instance>
  : never;

/** The states of a flow definition's screens. */
export type ScreenStateOf<Definition> = Definition extends { screens?: ScreensLoader<infer State> }
  ? State
  : never;
