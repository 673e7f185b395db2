import { Toaster as Sonner } from "sonner";

export const MAX_VISIBLE_TOASTS = 3;
export const TOAST_DURATION_MS = 3000;

export default function StyledToaster() {
  return (
    <Sonner
      position="bottom-right"
      visibleToasts={MAX_VISIBLE_TOASTS}
      duration={TOAST_DURATION_MS}
      closeButton
      toastOptions={{
        classNames: {
          toast: "!rounded-md !border-line !font-sans !text-ink !shadow-lg",
          description: "!text-muted",
        },
      }}
    />
  );
}
