import { useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRoundIcon, LoaderCircleIcon, RotateCwIcon, WalletIcon } from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { Skeleton } from "#web/components/ui/skeleton";
import { authSession } from "#web/features/auth/session";
import { listNearWallets } from "#web/features/auth/wallet/load";
import { DEV_WALLET_ID, type WalletOption } from "#web/features/auth/wallet/types";
import { appConfigQueryOptions } from "#web/features/config/api";
import { cn } from "#web/lib/cn";

const optionClasses = cn(
  "flex w-full items-center gap-3 rounded-md border border-line bg-surface px-3 py-3 text-left transition-colors",
  "hover:border-accent/40 hover:bg-accent-soft/40 disabled:cursor-not-allowed disabled:opacity-60",
);

/** Login's wallet chooser: NEAR mainnet wallets, plus the development wallet on development and test servers. */
export default function WalletChooserDialog({ open }: { open: boolean }) {
  const queryClient = useQueryClient();
  const { data: config } = useQuery(appConfigQueryOptions());
  const wallets = useQuery({
    queryKey: ["wallets", "near"],
    queryFn: listNearWallets,
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const [connecting, setConnecting] = useState<string | null>(null);
  const openedFrom = useRef<Element | null>(null);
  // Only a server that says its development tools are on (development or test, reachable from this machine only)
  // gets the local key; production never shows it.
  const offerDevWallet = config?.devTools === true;

  async function choose(walletId: string) {
    setConnecting(walletId);
    const { connectWallet } = await import("#web/features/auth/flows");
    const connected = await connectWallet(walletId, queryClient);
    setConnecting(null);
    if (connected) authSession.closeChooser();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        if (!connecting) authSession.closeChooser();
      }}
    >
      <DialogContent
        title="Connect a wallet"
        description="Sign in to Curate with your NEAR account."
        // Held at the top, not centred: the NEAR wallets' list changes height when it loads or fails, and a
        // centred dialog then moved the development wallet's button under a click, which did nothing.
        className="top-[10vh] max-w-md translate-y-0"
        onOpenAutoFocus={() => {
          openedFrom.current = document.activeElement;
        }}
        onCloseAutoFocus={(event) => {
          // After connecting, the Login button that opened the chooser is gone: focus moves to the control
          // that replaced it (Authorize App) instead of falling back to the top of the page.
          event.preventDefault();
          const origin = openedFrom.current;
          const target =
            origin instanceof HTMLElement && origin.isConnected
              ? origin
              : document.querySelector<HTMLElement>("[data-auth-control] button");
          target?.focus();
        }}
      >
        <div className="flex flex-col gap-5">
          {offerDevWallet ? (
            <section aria-labelledby="dev-wallet-heading" className="flex flex-col gap-2">
              <h3
                id="dev-wallet-heading"
                className="text-xs font-semibold tracking-wide text-muted uppercase"
              >
                This {config.environment} server
              </h3>
              <button
                type="button"
                data-testid="dev-wallet"
                aria-label="Development wallet"
                aria-describedby="dev-wallet-note"
                className={optionClasses}
                disabled={connecting !== null}
                onClick={() => choose(DEV_WALLET_ID)}
              >
                <OptionIcon busy={connecting === DEV_WALLET_ID}>
                  <KeyRoundIcon className="size-5 text-accent" aria-hidden="true" />
                </OptionIcon>
                <span className="min-w-0">
                  <span className="block text-sm font-semibold text-ink">Development wallet</span>
                  <span id="dev-wallet-note" className="block text-xs text-muted">
                    A key kept in this browser. Works offline; only on development servers.
                  </span>
                </span>
              </button>
            </section>
          ) : null}

          <section aria-labelledby="near-wallets-heading" className="flex flex-col gap-2">
            <h3
              id="near-wallets-heading"
              className="text-xs font-semibold tracking-wide text-muted uppercase"
            >
              NEAR wallets
            </h3>
            <NearWalletList
              status={wallets.status}
              wallets={wallets.data ?? []}
              connecting={connecting}
              onChoose={choose}
              onRetry={() => void wallets.refetch()}
              retrying={wallets.isFetching}
            />
          </section>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function OptionIcon({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <span className="inline-flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-md bg-accent-soft">
      {busy ? <LoaderCircleIcon className="size-5 animate-spin text-accent" aria-hidden="true" /> : children}
    </span>
  );
}

interface NearWalletListProps {
  status: "pending" | "error" | "success";
  wallets: WalletOption[];
  connecting: string | null;
  retrying: boolean;
  onChoose: (walletId: string) => void;
  onRetry: () => void;
}

function NearWalletList({ status, wallets, connecting, retrying, onChoose, onRetry }: NearWalletListProps) {
  if (status === "pending") {
    return (
      <ul aria-busy="true" aria-label="Loading wallets" className="flex flex-col gap-2">
        {[0, 1, 2].map((row) => (
          <li key={row} className="flex items-center gap-3 rounded-md border border-line px-3 py-3">
            <Skeleton className="size-10" />
            <Skeleton className="h-4 flex-1" />
          </li>
        ))}
      </ul>
    );
  }
  if (status === "error" || wallets.length === 0) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-md border border-dashed border-line px-4 py-4">
        <p className="text-sm text-muted">
          The list of NEAR wallets could not be loaded. Check your connection and try again.
        </p>
        <Button variant="secondary" size="sm" onClick={onRetry} disabled={retrying}>
          <RotateCwIcon aria-hidden="true" className={retrying ? "animate-spin" : undefined} />
          Try again
        </Button>
      </div>
    );
  }
  return (
    <ul className="flex flex-col gap-2">
      {wallets.map((wallet) => (
        <li key={wallet.id}>
          <button
            type="button"
            className={optionClasses}
            disabled={connecting !== null}
            onClick={() => onChoose(wallet.id)}
          >
            <OptionIcon busy={connecting === wallet.id}>
              {wallet.icon ? (
                <img src={wallet.icon} alt="" className="size-10 object-cover" />
              ) : (
                <WalletIcon className="size-5 text-accent" aria-hidden="true" />
              )}
            </OptionIcon>
            <span className="min-w-0">
              <span className="block text-sm font-semibold text-ink">{wallet.name}</span>
              {wallet.description ? (
                <span className="line-clamp-2 block text-xs text-muted">{wallet.description}</span>
              ) : null}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
