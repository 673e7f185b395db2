import { type ObjectTransformConfig, objectTransformConfigSchema } from "@curate/core";
import { renderValue } from "../templates.ts";
import type { TransformerPlugin } from "../types.ts";

/** Maps the input into a new object: each mapping is a template (text, or arrays and objects of templates). */
export const objectTransform: TransformerPlugin<ObjectTransformConfig> = {
  type: "transformer",
  local: true,
  name: "object-transform",
  configSchema: objectTransformConfigSchema,
  async transform(input, config) {
    return renderValue(config.mappings, input);
  },
};
