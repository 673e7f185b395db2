import { CheckIcon, CopyIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "./button";

/** How long the button reads "Copied" after a copy. */
const CONFIRMATION_MS = 2000;

/** The clipboard API needs a secure context; elsewhere a selected off-screen textarea and execCommand still copy. */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Refused (no permission, document not focused): try the old way below.
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("The browser refused to copy");
}

interface CopyButtonProps {
  text: string;
  /** What is copied, for the accessible name: "input" gives "Copy input", then "Copied input". */
  what: string;
  className?: string;
}

/** Copies a text and confirms it in place ("Copied"), also to screen readers. */
export function CopyButton({ text, what, className }: CopyButtonProps) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = () => {
    copyText(text).then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };

  const label = state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy";
  return (
    <Button
      variant="ghost"
      size="sm"
      className={className}
      onClick={copy}
      disabled={!text}
      aria-label={`${label} ${what}`}
    >
      {state === "copied" ? (
        <CheckIcon aria-hidden="true" className="text-emerald-600" />
      ) : (
        <CopyIcon aria-hidden="true" />
      )}
      <span aria-live="polite">{label}</span>
    </Button>
  );
}
