import { Avatar } from "#web/components/ui/avatar";
import { useProfileIdentity } from "#web/features/social-profile/use-profile-identity";

/** The NEAR Social identity of the signed-in account; shows the account id until (or unless) a profile loads. */
export function ProfileCard({ accountId }: { accountId: string }) {
  const { name, imageUrl } = useProfileIdentity(accountId);
  return (
    <section aria-label="Your profile" data-testid="profile-card" className="flex items-center gap-4">
      <Avatar
        name={name}
        src={imageUrl}
        size={40}
        className="ring-2 ring-surface ring-offset-2 ring-offset-line"
      />
      <div className="min-w-0">
        <h1 className="truncate text-2xl font-bold sm:text-3xl">{name}</h1>
        <p className="truncate font-mono text-xs text-muted sm:text-sm" data-testid="profile-account-id">
          {accountId}
        </p>
      </div>
    </section>
  );
}
