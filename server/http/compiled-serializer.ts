/**
 * A response serializer compiled from the route's zod response schemas by fast-json-stringify,
 * the serializer Fastify itself uses with JSON Schemas, for hot routes whose answers are long
 * lists (the library's page of 50 documents, decision 0089). The application's serializer
 * (fastify-type-provider-zod's) checks every answer against its zod schema, then runs
 * JSON.stringify: on a listing, that check cost more than the listing's own JSON. The compiled
 * one writes exactly the properties the schema declares, in its order (so a column the schema
 * leaves out, a storage key say, still never leaves the server), and throws, answering 500, when
 * a required property is missing; it does not check formats or patterns (a uuid, say), which the
 * route's own code produces. Give it to a route as its `serializerCompiler`.
 */
import fastJson from 'fast-json-stringify'
import type { FastifySerializerCompiler } from 'fastify/types/schema'
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'

/** Compiles `schema` (a zod type; any other schema goes to the zod provider's compiler). */
export const compiledSerializer: FastifySerializerCompiler<unknown> = (route) => {
  if (!(route.schema instanceof z.ZodType)) {
    return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0])
  }
  const jsonSchema = z.toJSONSchema(route.schema, { io: 'output', target: 'draft-7' })
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0])
}
