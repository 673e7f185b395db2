import { type SimpleTransformConfig, simpleTransformConfigSchema } from "@curate/core";
import { renderText } from "../templates.ts";
import type { TransformerPlugin } from "../types.ts";

/** One text template filled from the input; the output is a string. */
export const simpleTransform: TransformerPlugin<SimpleTransformConfig> = {
  type: "transformer",
  local: true,
  name: "simple-transform",
  configSchema: simpleTransformConfigSchema,
  async transform(input, config) {
    return renderText(config.template, input);
  },
};
