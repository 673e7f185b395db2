import { useId, useState } from "react";
import { Textarea } from "#web/components/ui/textarea";
import { parseStepConfig } from "#web/features/feed-editor/form-model";

const pretty = (config: Record<string, unknown>) => JSON.stringify(config, null, 2);

/**
 * A plugin's JSON config. Typing does not touch the working config: the text commits when the field loses
 * focus, and text that is not a JSON object is thrown away (the field reverts to the last good config).
 */
export function StepConfigField({
  label,
  config,
  onCommit,
}: {
  label: string;
  config: Record<string, unknown>;
  onCommit: (config: Record<string, unknown>) => void;
}) {
  const id = useId();
  const [text, setText] = useState(() => pretty(config));
  const [reverted, setReverted] = useState(false);

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      <Textarea
        id={id}
        value={text}
        spellCheck={false}
        rows={Math.min(12, Math.max(3, text.split("\n").length))}
        className="font-mono text-xs"
        onChange={(event) => {
          setReverted(false);
          setText(event.target.value);
        }}
        onBlur={() => {
          const parsed = parseStepConfig(text);
          if (parsed === null) {
            setText(pretty(config));
            setReverted(true);
            return;
          }
          setText(pretty(parsed));
          onCommit(parsed);
        }}
      />
      <p aria-live="polite" className="min-h-4 text-xs text-amber-800">
        {reverted ? "That was not a valid JSON object, so the config was left as it was." : ""}
      </p>
    </div>
  );
}
