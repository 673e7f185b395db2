import { lazy, type ReactNode, Suspense, useRef, useState } from "react";

const loadDrawer = () => import("./drawer");
const ControlledDrawer = lazy(loadDrawer);

export interface DrawerTriggerProps {
  ref: React.RefObject<HTMLButtonElement | null>;
  onClick: () => void;
  onPointerEnter: () => void;
  onFocus: () => void;
  "aria-haspopup": "dialog";
  "aria-expanded": boolean;
}

interface LazyDrawerProps {
  title: string;
  side?: "left" | "right";
  className?: string;
  trigger: (props: DrawerTriggerProps) => ReactNode;
  children: ReactNode | ((close: () => void) => ReactNode);
}

/**
 * A drawer whose code (dialog, focus trap, scroll lock) is fetched only when someone reaches for its trigger,
 * keeping it out of the first page load. Focus returns to the trigger when it closes.
 */
export function LazyDrawer({ title, side, className, trigger, children }: LazyDrawerProps) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);
  const preload = () => void loadDrawer();

  return (
    <>
      {trigger({
        ref: triggerRef,
        onClick: () => {
          setRequested(true);
          setOpen(true);
        },
        onPointerEnter: preload,
        onFocus: preload,
        "aria-haspopup": "dialog",
        "aria-expanded": open,
      })}
      {requested ? (
        <Suspense fallback={null}>
          <ControlledDrawer
            open={open}
            onOpenChange={setOpen}
            title={title}
            side={side}
            className={className}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              triggerRef.current?.focus();
            }}
          >
            {typeof children === "function" ? children(close) : children}
          </ControlledDrawer>
        </Suspense>
      ) : null}
    </>
  );
}
