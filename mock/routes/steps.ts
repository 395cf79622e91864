/**
 * A route written in two steps: `read` turns the request into what it asks (validated: a 4xx otherwise), `answer`
 * answers that. The split lets the fault layer (mock/faults/) bend what a request asks without the route knowing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MockContext } from '../context.ts';

export interface Steps<Asked, Answer = unknown> {
  read(ctx: MockContext, request: FastifyRequest): Asked;
  answer(ctx: MockContext, asked: Asked, request: FastifyRequest, reply: FastifyReply): Answer | Promise<Answer>;
}

export function stepsHandler<Asked, Answer>(ctx: MockContext, steps: Steps<Asked, Answer>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<Answer> =>
    steps.answer(ctx, steps.read(ctx, request), request, reply);
}
