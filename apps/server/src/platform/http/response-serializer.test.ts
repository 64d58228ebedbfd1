import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exactResponseSerializerCompiler } from './response-serializer.ts';

const serializerFor = (schema: z.ZodType) => exactResponseSerializerCompiler({ schema, method: 'GET', url: '/api/things', httpStatus: '200' });

describe('exact response serializer', () => {
  const thing = z.object({ id: z.string(), at: z.string().nullable() });

  it('sends an answer its schema describes exactly, in any key order', () => {
    expect(JSON.parse(serializerFor(thing)({ at: null, id: 't1' }))).toEqual({ id: 't1', at: null });
  });

  it('fails an answer whose schema would silently drop a field', () => {
    expect(() => serializerFor(thing)({ id: 't1', at: null, secret: 'x' })).toThrow(
      /GET \/api\/things: the 200 response schema does not describe the answer exactly/,
    );
  });

  it('fails an answer the schema refuses, as the production serializer does', () => {
    expect(() => serializerFor(thing)({ id: 1, at: null })).toThrow();
  });
});
