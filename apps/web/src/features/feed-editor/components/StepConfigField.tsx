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
  const [shown, setShown] = useState(() => pretty(config));
  const [reverted, setReverted] = useState(false);
  // Text that does not parse, kept because focus left for Save: Save then stops and says so instead of
  // quietly saving the old config.
  const [invalid, setInvalid] = useState(false);
  // The config can change from outside (renaming the feed retitles its RSS distributor): show it, unless the
  // field holds an edit of its own that has not been committed yet.
  const latest = pretty(config);
  if (latest !== shown) {
    setShown(latest);
    if (text === shown) setText(latest);
  }

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
        data-step-config=""
        aria-invalid={invalid ? true : undefined}
        onChange={(event) => {
          setReverted(false);
          setInvalid(false);
          setText(event.target.value);
        }}
        onBlur={(event) => {
          const parsed = parseStepConfig(text);
          if (parsed === null) {
            if (
              event.relatedTarget instanceof HTMLElement &&
              event.relatedTarget.dataset.keepsDrafts !== undefined
            ) {
              setInvalid(true);
              return;
            }
            setText(pretty(config));
            setReverted(true);
            return;
          }
          setText(pretty(parsed));
          setShown(pretty(parsed));
          onCommit(parsed);
        }}
      />
      <p
        aria-live="polite"
        className={invalid ? "min-h-4 text-xs text-red-700" : "min-h-4 text-xs text-amber-800"}
      >
        {invalid
          ? "This is not a valid JSON object: fix it before saving."
          : reverted
            ? "That was not a valid JSON object, so the config was left as it was."
            : ""}
      </p>
    </div>
  );
}
