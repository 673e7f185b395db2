import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "#web/lib/cn";
import { DialogOverlay } from "./dialog";

export const Drawer = DialogPrimitive.Root;
export const DrawerTrigger = DialogPrimitive.Trigger;
export const DrawerClose = DialogPrimitive.Close;

interface DrawerContentProps extends Omit<ComponentProps<typeof DialogPrimitive.Content>, "title"> {
  title: ReactNode;
  side?: "left" | "right";
}

/** A modal panel sliding in from a side; a radix dialog, so focus is trapped and Escape closes it. */
export function DrawerContent({ title, side = "left", className, children, ...props }: DrawerContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogOverlay />
      <DialogPrimitive.Content
        aria-describedby={undefined}
        className={cn(
          "fixed inset-y-0 z-50 flex w-[min(22rem,88vw)] flex-col border-line bg-surface shadow-xl",
          side === "left"
            ? "left-0 border-r data-[state=open]:animate-drawer-in-left"
            : "right-0 border-l data-[state=open]:animate-drawer-in-right",
          className,
        )}
        {...props}
      >
        <div className="flex h-16 shrink-0 items-center justify-between border-b border-line px-5">
          <DialogPrimitive.Title className="font-display text-lg font-semibold">
            {title}
          </DialogPrimitive.Title>
          <DialogPrimitive.Close
            aria-label="Close"
            className="-mr-1 rounded-md p-1.5 text-muted hover:bg-zinc-100 hover:text-ink"
          >
            <XIcon className="size-5" />
          </DialogPrimitive.Close>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto p-5">{children}</div>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

interface ControlledDrawerProps extends Omit<DrawerContentProps, "title"> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
}

/** The drawer as one component, so it can be loaded on demand by LazyDrawer. */
export default function ControlledDrawer({ open, onOpenChange, ...contentProps }: ControlledDrawerProps) {
  return (
    <Drawer open={open} onOpenChange={onOpenChange}>
      <DrawerContent {...contentProps} />
    </Drawer>
  );
}
