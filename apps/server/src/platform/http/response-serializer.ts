import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';

type ResponseSchema = Parameters<typeof serializerCompiler>[0]['schema'];

/**
 * The zod serializer, made to fail loudly when a response schema drops or rewrites part of what the handler
 * answered (zod strips unknown keys silently): the test suites run with it, so a schema that no longer
 * describes an answer exactly fails the test that made the call instead of quietly losing a field.
 */
export const exactResponseSerializerCompiler: FastifySerializerCompiler<ResponseSchema> = (route) => {
  const serialize = serializerCompiler(route);
  return (data) => {
    const json = serialize(data);
    const sent: unknown = JSON.parse(json);
    const answered: unknown = JSON.parse(JSON.stringify(data) ?? 'null');
    if (!isDeepStrictEqual(sent, answered)) {
      throw new Error(
        `${route.method} ${route.url}: the ${route.httpStatus} response schema does not describe the answer exactly; ` +
          `answered ${JSON.stringify(answered).slice(0, 600)}, would send ${json.slice(0, 600)}`,
      );
    }
    return json;
  };
};
