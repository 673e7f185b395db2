import { Link } from "@tanstack/react-router";
import { CompassIcon, MenuIcon, PlusIcon, TrophyIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "#web/components/ui/button";
import { LazyDrawer } from "#web/components/ui/lazy-drawer";
import { cn } from "#web/lib/cn";
import { Logo } from "./Logo";

const navLinkClasses = cn(
  "inline-flex h-9 items-center gap-2 rounded-md px-3 text-sm font-medium text-muted transition-colors",
  "hover:bg-zinc-100 hover:text-ink data-[status=active]:text-ink [&_svg]:size-4",
);

/**
 * The account pieces come in as slots from the root route: the chrome is shared by every page and must not
 * depend on a feature (sign-in lives in features/auth).
 */
export interface AppHeaderSlots {
  /** The sign-in, authorize or account control at the end of the desktop navigation. */
  account: ReactNode;
  /** The same control in the phone menu; `close` shuts the menu before anything else opens. */
  mobileAccount: (close: () => void) => ReactNode;
  /** Dialogs the header's controls open (the wallet chooser); they portal to the body. */
  dialogs?: ReactNode;
}

export function AppHeader({ account, mobileAccount, dialogs }: AppHeaderSlots) {
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-surface/90 backdrop-blur supports-[backdrop-filter]:bg-surface/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <Link to="/leaderboard" className={navLinkClasses}>
            <TrophyIcon aria-hidden="true" />
            Leaderboard
          </Link>
          <Link to="/create/feed" className={navLinkClasses}>
            <PlusIcon aria-hidden="true" />
            Create
          </Link>
          <div className="ml-3 border-l border-line pl-4">{account}</div>
        </nav>
        <MobileMenu account={mobileAccount} />
      </div>
      {dialogs}
    </header>
  );
}

function MobileMenu({ account }: { account: AppHeaderSlots["mobileAccount"] }) {
  return (
    <LazyDrawer
      title="Menu"
      side="right"
      trigger={(props) => (
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu" {...props}>
          <MenuIcon className="!size-5" />
        </Button>
      )}
    >
      {(close) => (
        <>
          <nav aria-label="Mobile" className="flex flex-col gap-1">
            <Link to="/" className={navLinkClasses} activeOptions={{ exact: true }} onClick={close}>
              <CompassIcon aria-hidden="true" />
              Explore
            </Link>
            <Link to="/leaderboard" className={navLinkClasses} onClick={close}>
              <TrophyIcon aria-hidden="true" />
              Leaderboard
            </Link>
            {/* Creating a feed is a desktop task for now, so the phone menu shows the entry but disables it. */}
            <span
              role="link"
              aria-disabled="true"
              tabIndex={0}
              className={cn(navLinkClasses, "cursor-not-allowed opacity-50 hover:bg-transparent")}
            >
              <PlusIcon aria-hidden="true" />
              Create
            </span>
          </nav>
          <div className="mt-6 border-t border-line pt-6">{account(close)}</div>
        </>
      )}
    </LazyDrawer>
  );
}
