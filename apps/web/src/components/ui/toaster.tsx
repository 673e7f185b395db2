import { Toaster as Sonner } from "sonner";
import { TOAST_LIFT_VARIABLE } from "./toast-lift";

export const MAX_VISIBLE_TOASTS = 3;
export const TOAST_DURATION_MS = 3000;

export default function StyledToaster() {
  return (
    <Sonner
      position="bottom-right"
      // A sticky bar at the bottom of the page (the curation tab's selection) lifts the toasts above itself.
      offset={{ bottom: `var(${TOAST_LIFT_VARIABLE}, 24px)`, right: "24px" }}
      mobileOffset={{ bottom: `var(${TOAST_LIFT_VARIABLE}, 16px)`, right: "16px", left: "16px" }}
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
