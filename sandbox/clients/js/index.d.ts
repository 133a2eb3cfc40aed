import type { ChildProcess } from 'node:child_process';

/** A key of a world and what it may act on. */
export interface Key {
  key: string;
  name?: string;
  kind: 'user' | 'legal_entity';
  readOnly: boolean;
  legalEntityIds: string[];
  userId?: string;
}

/** The virtual clock of a world. */
export interface Clock {
  now: string;
  mode: 'frozen' | 'real' | 'scaled';
  scale?: number;
  start: string;
  nextEventAt: string | null;
}

/** An email the sandbox sent, from its outbox. */
export interface Message {
  id: string;
  kind: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  html: string;
  links: Record<string, string>;
  relatedId?: string;
  legalEntityId?: string;
  createdAt: string;
}

/** One request a delivery made to its webhook. */
export interface DeliveryAttempt {
  number: number;
  at: string;
  url: string;
  request: { headers: Record<string, string>; body: string };
  response: { status: number; body: string } | null;
  latencyMs: number;
  error?: string;
  succeeded: boolean;
}

/** A webhook event on its way to one webhook, with its attempts. */
export interface Delivery {
  id: string;
  webhookId: string;
  legalEntityId: string;
  event: string;
  eventId: string;
  entityId: string;
  payload: { entityId: string; event: string; eventId: string };
  status: 'queued' | 'pending' | 'retrying' | 'succeeded' | 'failed' | 'canceled';
  source: 'event' | 'trigger' | 'redeliver' | 'duplicate';
  relatedId?: string;
  attemptCount: number;
  attempts: DeliveryAttempt[];
  nextAttemptAt?: string;
  createdAt: string;
  completedAt?: string;
}

/** What every wait takes besides its filters. */
export interface WaitOptions {
  /** Only what was made at or after this virtual time. */
  since?: string | Date;
  /** A message or delivery id: only what came after it. */
  after?: string;
  /** Milliseconds, or a duration such as "5s"; 10 s by default, at most 60 s. */
  timeout?: number | string;
}

export interface EmailFilter {
  /** A recipient, To or CC, in any case. */
  to?: string;
  kind?: string;
  relatedId?: string;
  /** A part of the subject, in any case. */
  subject?: string;
}

export interface DeliveryFilter {
  webhookId?: string;
  event?: string;
  status?: Delivery['status'];
}

export interface Snapshot {
  id: string;
  world?: string;
  scenario: string;
  seed: number;
  clock: string;
  label?: string;
  size: number;
}

export interface Advanced {
  from: string;
  to: string;
  clock: Clock;
  events: Array<{ id: string; kind: string; at: string; status: string; summary?: string; error?: string }>;
  webhooks?: { settled: boolean; delivered: unknown[] };
}

export interface WorldSpec {
  scenario?: string;
  yaml?: string;
  snapshot?: string;
  id?: string;
  seed?: number;
  clockStart?: string;
  /** Wall time after which the sandbox deletes the world; "30m" by default. */
  ttl?: string;
}

export interface StartOptions {
  /** A running sandbox (or container): the default is SLASH_SANDBOX_URL. */
  url?: string;
  /** The slash-sandbox binary to start: the default is SLASH_SANDBOX_BIN. */
  bin?: string;
  /** More command-line flags for the started binary. */
  args?: string[];
  /** The admin token: the default is SLASH_SANDBOX_ADMIN_TOKEN. */
  adminToken?: string;
  /** How long the binary may take to serve; 20000 by default. */
  startTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** An error answered by the control API. */
export class SandboxError extends Error {
  status: number;
  code: string;
  details: Record<string, string>;
  referenceId: string;
  /** True when a wait ran out of time (408 timeout). */
  readonly timedOut: boolean;
}

export class Sandbox {
  /** The sandbox's base URL: an official SDK's baseURL. */
  readonly url: string;
  readonly adminToken: string;
  /** The process startSandbox started, or null. */
  readonly process: ChildProcess | null;
  request<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  health(): Promise<{ status: string; version: string; world: string; clock: Clock; worlds: number }>;
  createWorld(spec?: WorldSpec): Promise<World>;
  /** Stops the process startSandbox started; a sandbox at a URL is left running. */
  stop(): Promise<void>;
  /** The last lines the started process logged. */
  log(): string;
}

export class World {
  readonly sandbox: Sandbox;
  readonly id: string;
  /** The world's API keys: the scenario's, with "_<id>" appended. */
  readonly keys: Key[];
  readonly clock: Clock;
  /** The public API's base URL: give it, with a key, to an official SDK. */
  readonly baseURL: string;
  /** The card vault's base URL (the sandbox's https://vault.joinslash.com): only there does GET /card/{cardId} reveal the PAN and CVV. */
  readonly vaultURL: string;
  /** The world's key for a scenario key name; an unknown name throws, listing the keys. */
  key(name: string): string;
  control<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  advance(by: string): Promise<Advanced>;
  advanceTo(to: string | Date): Promise<Advanced>;
  now(): Promise<Clock>;
  reset(): Promise<unknown>;
  waitForEmail(filter?: EmailFilter & WaitOptions): Promise<Message>;
  waitForDelivery(filter?: DeliveryFilter & WaitOptions): Promise<Delivery>;
  outbox(filter?: EmailFilter): Promise<Message[]>;
  deliveries(filter?: DeliveryFilter): Promise<Delivery[]>;
  snapshot(label?: string): Promise<Snapshot>;
  restore(snapshotId: string): Promise<unknown>;
  delete(): Promise<void>;
}

/** A sandbox for a test suite: the server at url, else the binary at bin, started on a free port. */
export function startSandbox(options?: StartOptions): Promise<Sandbox>;
