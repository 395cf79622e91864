/**
 * The fault layer: how a fault switch bends the conformant mock from outside. The routes and stores know nothing of
 * faults; a switched-on fault reaches them through the seams this file offers, each one a thing Fastify or plain
 * JavaScript already has:
 *
 * - `route(key, bend)`: hooks of one route (`preHandler` to rewrite params, query or body; `answer` for a 2xx answer
 *   before it is serialised; `onSend` for the bytes and headers; `errorHandler`), or a handler in place of its own;
 * - `steps(key, steps, bend)`: for a route written in two steps (`mock/routes/steps.ts`), what the request asks is bent
 *   between reading it and answering it;
 * - `beforeAuth(hook)`: a request hook that runs before the bearer-token check;
 * - `decorate(target, method, wrap)`: a store (or the id factory, or the webhook hub) method wrapped, and `inRoute(key)`
 *   to bend it only while one route's handler runs;
 * - `serveUnder(prefix)`: the interface served under another prefix.
 *
 * A route key is the method and the Fastify path below the API prefix, as the route files declare them
 * (`'GET /offers/:offerId'`). HEAD answers as GET does, so GET's bends apply to it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MockContext } from '../context.ts';
import type { Steps } from '../routes/steps.ts';

export type RouteKey = `${'GET' | 'PUT' | 'POST' | 'DELETE'} /${string}`;

export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

export interface RouteBend {
  /** After the body is parsed, before the handler: rewrite `request.params`, `query` or `body`, or throw an HttpError. */
  preHandler?(request: FastifyRequest): void;
  /** A handler in place of the one the route has (the conformant one, or an earlier bend's). */
  handler?(previous: Handler): Handler;
  /** A 2xx answer before it is serialised (error bodies are left alone); returns the answer to send. */
  answer?(payload: unknown, request: FastifyRequest): unknown;
  /** Every answer after it is serialised (any status): headers, the bytes. Returns the payload to send. */
  onSend?(payload: unknown, request: FastifyRequest, reply: FastifyReply): unknown;
  /** The route's errors before the mock's own error handler; throw to hand one on. */
  errorHandler?(error: unknown, request: FastifyRequest): never;
}

export interface StepsBend<Asked, Answer = unknown> {
  /** Reads the request in place of the route's own `read` (the last bend that says so wins). */
  read?(request: FastifyRequest): Asked;
  /** What the request asks, bent before it is answered. */
  asked?(asked: Asked, request: FastifyRequest): Asked;
  /** The answer, bent with what was asked in view (inside the handler, before the route hooks). */
  answered?(answer: Answer, asked: Asked, request: FastifyRequest): Answer;
}

interface StepsEntry {
  steps: Steps<unknown, unknown>;
  bends: StepsBend<unknown, unknown>[];
}

interface Scope {
  key: RouteKey;
  request: FastifyRequest;
}

/** One fault's bends, registered on the layer when the fault is switched on. */
export type Bend = (layer: FaultLayer) => void;

export class FaultLayer {
  private readonly routeBends = new Map<RouteKey, RouteBend[]>();
  private readonly stepsBends = new Map<RouteKey, StepsEntry>();
  private readonly requestHooks: ((request: FastifyRequest, key: RouteKey | undefined) => void)[] = [];
  private readonly scopes = new AsyncLocalStorage<Scope>();
  private servedPrefix: string;

  constructor(
    readonly ctx: MockContext,
    /** The token the mock accepts, for the faults that accept others. */
    readonly token: string,
    /** The prefix the routes are declared under (spec 9 rule 2). */
    readonly apiPrefix: string,
  ) {
    this.servedPrefix = apiPrefix;
  }

  route(key: RouteKey, bend: RouteBend): void {
    this.routeBends.set(key, [...(this.routeBends.get(key) ?? []), bend]);
  }

  steps<Asked, Answer>(key: RouteKey, steps: Steps<Asked, Answer>, bend: StepsBend<Asked, Answer>): void {
    const entry = this.stepsBends.get(key) ?? { steps: steps as Steps<unknown, unknown>, bends: [] };
    if (entry.steps !== steps) throw new Error(`fault layer: ${key} bent through two different step pairs`);
    entry.bends.push(bend as StepsBend<unknown, unknown>);
    this.stepsBends.set(key, entry);
  }

  /** A hook run on every request before the bearer-token check, given the route it matched (if any). */
  beforeAuth(hook: (request: FastifyRequest, key: RouteKey | undefined) => void): void {
    this.requestHooks.push(hook);
  }

  serveUnder(prefix: string): void {
    this.servedPrefix = prefix;
  }

  /** The prefix the interface is served under: the API prefix, unless a fault moved it. */
  get prefix(): string {
    return this.servedPrefix;
  }

  /** True while the handler of `key` runs (and anything it calls), for a decorator that bends one route only. */
  inRoute(key: RouteKey): boolean {
    return this.scopes.getStore()?.key === key;
  }

  /** The request whose handler is running, if any. */
  currentRequest(): FastifyRequest | undefined {
    return this.scopes.getStore()?.request;
  }

  /** Replaces `target[method]` by `wrap(original)`; the original is bound to its target. */
  decorate<T extends object, K extends keyof T>(target: T, method: K, wrap: (original: T[K]) => T[K]): void {
    const original = target[method];
    if (typeof original !== 'function') throw new Error(`fault layer: ${String(method)} is not a method`);
    target[method] = wrap(original.bind(target) as T[K]);
  }

  /** Adds the hooks to the app; call before any route is registered. */
  install(app: FastifyInstance): void {
    if (this.requestHooks.length > 0) {
      app.addHook('onRequest', async (request) => {
        const key = this.keyOf(request.routeOptions.method, request.routeOptions.url);
        for (const hook of this.requestHooks) hook(request, key);
      });
    }
    const bent = new Set<RouteKey>([...this.routeBends.keys(), ...this.stepsBends.keys()]);
    app.addHook('onRoute', (opts) => {
      const key = this.keyOf(opts.method, opts.url);
      if (!key) return;
      bent.delete(key);
      if (this.servedPrefix !== this.apiPrefix)
        opts.url = this.servedPrefix + (opts.url ?? '').slice(this.apiPrefix.length);
      opts.handler = this.scoped(key, this.handlerOf(key, opts.handler as Handler)) as typeof opts.handler;
      const hooks = opts as unknown as Record<string, unknown>;
      for (const bend of this.routeBends.get(key) ?? []) this.addRouteHooks(hooks, bend);
    });
    // A bend of a route the mock does not have (a typo in a key) would leave its fault switched off.
    app.addHook('onReady', async () => {
      if (bent.size > 0) throw new Error(`fault layer: no route ${[...bent].join(', ')}`);
    });
  }

  private keyOf(method: unknown, url: string | undefined): RouteKey | undefined {
    const m = Array.isArray(method) ? method[0] : method;
    if (typeof m !== 'string' || url === undefined || !url.startsWith(`${this.apiPrefix}/`)) return undefined;
    return `${m === 'HEAD' ? 'GET' : m} ${url.slice(this.apiPrefix.length)}` as RouteKey;
  }

  private handlerOf(key: RouteKey, own: Handler): Handler {
    let handler = own;
    const entry = this.stepsBends.get(key);
    if (entry) handler = this.bentSteps(entry);
    for (const bend of this.routeBends.get(key) ?? []) if (bend.handler) handler = bend.handler(handler);
    return handler;
  }

  private bentSteps({ steps, bends }: StepsEntry): Handler {
    const ctx = this.ctx;
    const reader = [...bends].reverse().find((b) => b.read !== undefined)?.read;
    return async (request, reply) => {
      let asked = reader ? reader(request) : steps.read(ctx, request);
      for (const b of bends) if (b.asked) asked = b.asked(asked, request);
      let answer = await steps.answer(ctx, asked, request, reply);
      for (const b of bends) if (b.answered) answer = b.answered(answer, asked, request);
      return answer;
    };
  }

  /** Runs the handler inside the route's scope, so decorators can tell which route called them. */
  private scoped(key: RouteKey, handler: Handler): Handler {
    const scopes = this.scopes;
    return function (this: unknown, request, reply) {
      return scopes.run({ key, request }, () => handler.call(this, request, reply));
    };
  }

  private addRouteHooks(hooks: Record<string, unknown>, bend: RouteBend): void {
    const append = (name: string, hook: unknown) => {
      const had = hooks[name];
      hooks[name] = [...(Array.isArray(had) ? had : had ? [had] : []), hook];
    };
    const { preHandler, answer, onSend, errorHandler } = bend;
    if (preHandler) append('preHandler', async (request: FastifyRequest) => preHandler(request));
    if (answer)
      append('preSerialization', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) =>
        reply.statusCode >= 200 && reply.statusCode < 300 ? answer(payload, request) : payload,
      );
    if (onSend)
      append('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) =>
        onSend(payload, request, reply),
      );
    if (errorHandler) {
      if (hooks.errorHandler) throw new Error('fault layer: two error handlers on one route');
      hooks.errorHandler = (error: unknown, request: FastifyRequest) => errorHandler(error, request);
    }
  }
}
