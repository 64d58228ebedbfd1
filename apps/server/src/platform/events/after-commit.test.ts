import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { collectAfterCommit, deferAfterCommit, registerRequestAfterCommit, runDeferred } from './after-commit.ts';

describe('work deferred to the end of a unit', () => {
  it('is refused outside a unit, so the caller does it another way', () => {
    expect(deferAfterCommit(async () => undefined)).toBe(false);
  });

  it('runs in order when the unit has finished; a failing piece is reported and the rest still runs', async () => {
    const ran: string[] = [];
    const { result, deferred } = await collectAfterCommit(async () => {
      expect(deferAfterCommit(async () => void ran.push('primero'))).toBe(true);
      await Promise.resolve();
      deferAfterCommit(async () => {
        throw new Error('falla');
      });
      deferAfterCommit(async () => void ran.push('tercero'));
      return 'hecho';
    });
    expect(result).toBe('hecho');
    expect(ran).toEqual([]);
    const errors: unknown[] = [];
    await runDeferred(deferred, (error) => errors.push(error));
    expect(ran).toEqual(['primero', 'tercero']);
    expect(errors).toHaveLength(1);
    await runDeferred(deferred, (error) => errors.push(error));
    expect(ran).toHaveLength(2);
  });

  it("of a request runs once it has answered, each request's own", async () => {
    const app = Fastify();
    const warnings: unknown[] = [];
    registerRequestAfterCommit(app, { warn: (details: unknown) => void warnings.push(details) });
    const ran: string[] = [];
    const answered = new Set<string>();
    app.addHook('onSend', async (request) => void answered.add((request.params as { name: string }).name));
    app.get('/uno/:name', async (request) => {
      const { name } = request.params as { name: string };
      await new Promise((resolve) => setTimeout(resolve, 5));
      deferAfterCommit(async () => void ran.push(`${name}: ${answered.has(name) ? 'respondida' : 'sin responder'}`));
      return { name };
    });
    const answers = await Promise.all(['a', 'b'].map((name) => app.inject({ method: 'GET', url: `/uno/${name}` })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(ran.sort()).toEqual(['a: respondida', 'b: respondida']);
    expect(warnings).toEqual([]);
    await app.close();
  });
});
