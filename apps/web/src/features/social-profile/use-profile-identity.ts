import { useQuery } from "@tanstack/react-query";
import { shortAccountId } from "#web/lib/account";
import { socialProfileQueryOptions } from "./api";

/** Name and avatar for an account: the NEAR Social profile when it loads, the account id meanwhile or instead. */
export function useProfileIdentity(accountId: string) {
  const { data } = useQuery(socialProfileQueryOptions(accountId));
  return {
    name: data?.name ?? shortAccountId(accountId),
    imageUrl: data?.imageUrl ?? null,
  };
}
