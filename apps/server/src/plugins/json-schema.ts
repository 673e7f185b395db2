import { Ajv, type ValidateFunction } from "ajv";

/**
 * Registered plugins describe their config with a JSON Schema (their own code is not ours to import). One Ajv
 * instance compiles them; compiled validators are kept per schema text, since the same few schemas are checked
 * on every save and every run.
 */
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 500;

function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, validate);
  }
  return validate;
}

/** Why a schema definition cannot check configs, or null when it can. */
export function schemaDefinitionProblem(schema: object): string | null {
  try {
    validatorFor(schema);
    return null;
  } catch (err) {
    return `not a usable JSON Schema (${(err as Error).message})`;
  }
}

export interface ConfigProblem {
  path: string;
  message: string;
}

/** A config's disagreements with a plugin's schema definition, each at its path (`a.b.0`). */
export function configProblems(schema: object, config: unknown): ConfigProblem[] {
  const validate = validatorFor(schema);
  if (validate(config)) return [];
  return (validate.errors ?? []).map((error) => ({
    path: error.instancePath.split("/").filter(Boolean).join("."),
    message: error.message ?? "is invalid",
  }));
}
