import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ActivityIcon, BellIcon, ChevronDownIcon, LogOutIcon, SettingsIcon, UserIcon } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Avatar } from "#web/components/ui/avatar";
import { CopyButton } from "#web/components/ui/copy-button";
import { useProfileIdentity } from "#web/features/social-profile/use-profile-identity";
import { shortAccountId } from "#web/lib/account";
import { cn } from "#web/lib/cn";

const itemClasses = cn(
  "flex w-full items-center gap-2.5 rounded-md px-2.5 py-2 text-left text-sm text-ink outline-none",
  "hover:bg-zinc-100 focus:bg-zinc-100 focus-visible:outline-none [&_svg]:size-4 [&_svg]:text-muted",
);

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
}

async function disconnect(queryClient: ReturnType<typeof useQueryClient>) {
  const flows = await import("#web/features/auth/flows");
  await flows.disconnect(queryClient);
}

/**
 * The signed-in header control: avatar and name opening a menu (Profile, Reminders, Settings, Operations for super admins,
 * Disconnect). A hand-rolled menu button following the WAI-ARIA pattern: arrows, Home/End, Escape and Tab work; a
 * popover library would cost more than this whole feature.
 */
export default function AccountMenu({ accountId, superAdmin }: AccountMenuProps) {
  const queryClient = useQueryClient();
  const { name, imageUrl } = useProfileIdentity(accountId);
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const triggerId = useId();
  const pendingFocus = useRef<"first" | "last" | null>(null);

  useEffect(() => {
    if (!open) return;
    const list = menuItems(menuRef.current);
    const target = pendingFocus.current === "last" ? list.at(-1) : list[0];
    pendingFocus.current = null;
    target?.focus();
    const closeOnOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutside);
    return () => document.removeEventListener("pointerdown", closeOnOutside);
  }, [open]);

  function openWithFocus(where: "first" | "last") {
    pendingFocus.current = where;
    setOpen(true);
  }

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) triggerRef.current?.focus();
  }

  function onTriggerKeyDown(event: KeyboardEvent) {
    if (event.key === "ArrowDown" || event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openWithFocus("first");
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      openWithFocus("last");
    }
  }

  function onMenuKeyDown(event: KeyboardEvent) {
    const list = menuItems(menuRef.current);
    const index = list.indexOf(document.activeElement as HTMLElement);
    const moveTo = (next: number) => {
      event.preventDefault();
      list[(next + list.length) % list.length]?.focus();
    };
    if (event.key === "ArrowDown") moveTo(index + 1);
    else if (event.key === "ArrowUp") moveTo(index - 1);
    else if (event.key === "Home") moveTo(0);
    else if (event.key === "End") moveTo(list.length - 1);
    else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") close(false);
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={triggerRef}
        id={triggerId}
        type="button"
        data-testid="account-menu-trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Account menu for ${name}`}
        onClick={() => (open ? close(false) : openWithFocus("first"))}
        onKeyDown={onTriggerKeyDown}
        className="inline-flex h-10 max-w-56 items-center gap-2 rounded-full border border-line bg-surface py-1 pr-3 pl-1 shadow-xs transition-colors hover:bg-zinc-50"
      >
        <Avatar name={name} src={imageUrl} size={32} />
        <span className="truncate text-sm font-medium text-ink">{name}</span>
        <ChevronDownIcon
          aria-hidden="true"
          className={cn("size-4 shrink-0 text-muted transition-transform", open && "rotate-180")}
        />
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-labelledby={triggerId}
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          className="absolute top-full right-0 z-50 mt-2 w-64 rounded-md border border-line bg-surface p-1.5 shadow-lg data-[state=open]:animate-fade-in"
          data-state="open"
        >
          <AccountIdentity accountId={accountId} name={name} imageUrl={imageUrl} avatarSize={24} />
          <div className="my-1 h-px bg-line" />
          <Link
            to="/profile/overview"
            role="menuitem"
            tabIndex={-1}
            className={itemClasses}
            onClick={() => close(false)}
          >
            <UserIcon aria-hidden="true" />
            Profile
          </Link>
          <Link
            to="/reminders"
            role="menuitem"
            tabIndex={-1}
            className={itemClasses}
            onClick={() => close(false)}
          >
            <BellIcon aria-hidden="true" />
            Reminders
          </Link>
          <Link
            to="/profile/settings/connections"
            role="menuitem"
            tabIndex={-1}
            className={itemClasses}
            onClick={() => close(false)}
          >
            <SettingsIcon aria-hidden="true" />
            Settings
          </Link>
          {superAdmin ? (
            <Link
              to="/operations"
              role="menuitem"
              tabIndex={-1}
              className={itemClasses}
              onClick={() => close(false)}
            >
              <ActivityIcon aria-hidden="true" />
              Operations
            </Link>
          ) : null}
          <div className="my-1 h-px bg-line" />
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className={itemClasses}
            onClick={() => {
              close(false);
              void disconnect(queryClient);
            }}
          >
            <LogOutIcon aria-hidden="true" />
            Disconnect
          </button>
        </div>
      ) : null}
    </div>
  );
}

interface AccountMenuProps {
  accountId: string;
  /** Whether the server names this user a super admin: the Operations page is theirs alone. */
  superAdmin: boolean;
}

/** The same account actions laid out flat for the mobile menu drawer. */
export function AccountPanel({
  accountId,
  superAdmin,
  onNavigate,
}: AccountMenuProps & { onNavigate: () => void }) {
  const queryClient = useQueryClient();
  const { name, imageUrl } = useProfileIdentity(accountId);
  return (
    <div className="flex flex-col gap-1" data-testid="account-panel">
      <AccountIdentity accountId={accountId} name={name} imageUrl={imageUrl} avatarSize={40} />
      <Link to="/profile/overview" className={cn(itemClasses, "px-3")} onClick={onNavigate}>
        <UserIcon aria-hidden="true" />
        Profile
      </Link>
      <Link to="/reminders" className={cn(itemClasses, "px-3")} onClick={onNavigate}>
        <BellIcon aria-hidden="true" />
        Reminders
      </Link>
      <Link to="/profile/settings/connections" className={cn(itemClasses, "px-3")} onClick={onNavigate}>
        <SettingsIcon aria-hidden="true" />
        Settings
      </Link>
      {superAdmin ? (
        <Link to="/operations" className={cn(itemClasses, "px-3")} onClick={onNavigate}>
          <ActivityIcon aria-hidden="true" />
          Operations
        </Link>
      ) : null}
      <button
        type="button"
        className={cn(itemClasses, "px-3")}
        onClick={() => {
          onNavigate();
          void disconnect(queryClient);
        }}
      >
        <LogOutIcon aria-hidden="true" />
        Disconnect
      </button>
    </div>
  );
}

interface AccountIdentityProps {
  accountId: string;
  name: string;
  imageUrl: string | null;
  avatarSize: 24 | 40;
}

/**
 * Who is signed in: the profile name when there is one, then the full account id once (people copy it to be
 * added as approvers), with a copy button. Without a profile name the id is not repeated as a name.
 */
function AccountIdentity({ accountId, name, imageUrl, avatarSize }: AccountIdentityProps) {
  const hasProfileName = name !== shortAccountId(accountId) && name !== accountId;
  return (
    <div className="flex flex-col gap-1.5 px-2.5 pt-1.5 pb-2.5" data-testid="account-identity">
      <div className="flex min-w-0 items-center gap-2.5">
        <Avatar name={name} src={imageUrl} size={avatarSize} />
        {hasProfileName ? <p className="truncate text-sm font-semibold text-ink">{name}</p> : null}
      </div>
      <div className="flex items-start justify-between gap-2">
        <p className="min-w-0 font-mono text-xs break-all text-muted" data-testid="account-id">
          {accountId}
        </p>
        <CopyButton text={accountId} what="account ID" className="-mt-1 shrink-0" />
      </div>
    </div>
  );
}
