import { useQuery } from "@tanstack/react-query";
import { TriangleAlertIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { appConfigQueryOptions } from "#web/features/config/api";
import {
  type UnfillablePlaceholder,
  unfillablePlaceholders,
  unfillableText,
} from "#web/features/feeds/placeholders";

// Kept by name and plugin rather than position: removing another step moves the positions.
const keyOf = (placeholder: UnfillablePlaceholder) => `${placeholder.plugin}|${placeholder.name}`;

interface PlaceholderWarningsProps {
  /** The feed config being written (the wizard's draft or the editor's working copy). */
  config: unknown;
  onRemoveStep: (placeholder: UnfillablePlaceholder) => void;
  /** Why Remove the step cannot be pressed now, if it cannot (the JSON being edited does not parse). */
  removeBlockedReason?: string;
  /** The saved feed's own secrets by name (the edit page): they fill placeholders before the server does. */
  feedSecretNames?: readonly string[];
}

/**
 * One warning per step whose `{{NAME}}` this server cannot fill, before the feed is saved: the step would fail on
 * every job. The owner keeps it (the operator may set the variable later) or removes the step.
 */
export function PlaceholderWarnings({
  config,
  onRemoveStep,
  removeBlockedReason,
  feedSecretNames,
}: PlaceholderWarningsProps) {
  const { data: appConfig } = useQuery(appConfigQueryOptions());
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set());
  if (!appConfig) return null;
  const warnings = unfillablePlaceholders(config, [
    ...appConfig.placeholders,
    ...(feedSecretNames ?? []),
  ]).filter((placeholder) => !kept.has(keyOf(placeholder)));
  if (warnings.length === 0) return null;

  return (
    <div className="flex flex-col gap-3" data-testid="placeholder-warnings">
      {warnings.map((placeholder) => (
        <Alert key={`${placeholder.stepPath}|${placeholder.name}`} variant="warning" className="flex gap-3">
          <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <div className="flex min-w-0 flex-1 flex-col gap-3">
            <p className="break-words">
              {unfillableText(placeholder, { feedSecrets: feedSecretNames !== undefined })}
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setKept((previous) => new Set(previous).add(keyOf(placeholder)))}
              >
                Keep it
              </Button>
              <Button
                variant="secondary"
                size="sm"
                className="text-red-700 hover:bg-red-50"
                disabled={removeBlockedReason !== undefined}
                title={removeBlockedReason}
                onClick={() => onRemoveStep(placeholder)}
              >
                Remove the step
              </Button>
            </div>
          </div>
        </Alert>
      ))}
    </div>
  );
}
