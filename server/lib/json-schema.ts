import { z } from 'zod';

/*
 * The OpenAPI document is written by zod from the schemas the API enforces (server/http/openapi.ts). Zod
 * writes what a schema's structure says; a refinement (`.refine`, `.superRefine`) is invisible to it. Where
 * a rule is a refinement, the schema says it to the document in one of two ways, and the refinement stays
 * the enforcement (its messages are the API's answers):
 *
 * - JSON Schema keywords in `.meta()` (zod copies them into the schema it writes): `anyOf` of `required`
 *   lists, `not`, `if`/`then`, `pattern`, `enum`. The helpers below write them. Only keywords that draft-07
 *   validators read the same way (no `dependentRequired`): Prism, like many tools, validates with draft-07
 *   semantics unless a schema names its dialect.
 * - `documentAs(enforced, shown)` where the enforced schema's structure is not the shape a client sends: a
 *   `preprocess` that accepts a second shape, or a list whose items are checked one by one by the module
 *   (each item's answer of its own) rather than by the list's schema.
 *
 * What JSON Schema cannot say (a rule that depends on stored data, compares two fields, or wants a key
 * unique across a list) stays in the description; docs/decisions.md lists those rules.
 */

const shown = new WeakMap<object, z.ZodType>();

/**
 * The document shows `documented` where the API enforces `enforced` (returned as is, to be used in its
 * place). Register the final schema: `.meta()` or `.optional()` after this call makes another one.
 */
export function documentAs<S extends z.ZodType>(enforced: S, documented: z.ZodType): S {
  shown.set(enforced, documented);
  return enforced;
}

/** The schema the document shows instead of `schema`, if `documentAs` named one. */
export function documentedAs(schema: z.core.$ZodType): z.ZodType | undefined {
  return shown.get(schema);
}

/** `anyOf` required lists: at least one of the fields is present. */
export function atLeastOneOf(...fields: string[]) {
  return { anyOf: fields.map((field) => ({ required: [field] })) };
}

/** `if`/`then`: when the object's `field` is `value`, `then` applies too. */
export function whenField(field: string, value: string, then: Record<string, unknown>) {
  return { if: { properties: { [field]: { const: value } }, required: [field] }, then };
}

/**
 * A string with something besides white space: what `.trim().min(1)` accepts (JavaScript's `\s` is the
 * set `trim()` removes).
 */
export const NOT_BLANK = '\\S';

/** The JSON Schema of `schema` as a request carries it, to be put inside another schema's keywords. */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  return json;
}
