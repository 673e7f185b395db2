import type { ApproverOffer, Feed } from "@curate/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckIcon, XIcon } from "lucide-react";
import { Badge, type BadgeTone } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { RelativeTime } from "#web/components/ui/relative-time";
import { toast } from "#web/components/ui/toast";
import { feedQueryOptions } from "#web/features/feeds/api";
import { approverOffersQueryOptions, useAnswerApproverOffer } from "#web/features/governance/api";
import { shortAccountId } from "#web/lib/account";

const STATUS: Record<ApproverOffer["status"], { label: string; tone: BadgeTone }> = {
  offered: { label: "Waiting for you", tone: "amber" },
  confirmed: { label: "Confirmed", tone: "green" },
  declined: { label: "Declined", tone: "neutral" },
};

interface ApproverOffersProps {
  feedId: string;
  /** The editor holds unsaved changes: a confirmation saves the config, so it waits until they are saved. */
  dirty: boolean;
  /** After a confirmation saved the config: the editor starts again from the feed as saved. */
  onConfirmed: (feed: Feed) => void;
}

/**
 * Approver rights the feed's trust policy offered to curators over its higher bar (`trust.offerApprover`), beside
 * the approver lists: nothing changes until an owner confirms (the curator joins the approvers) or declines.
 * Nothing at all while no one was offered.
 */
export function ApproverOffers({ feedId, dirty, onConfirmed }: ApproverOffersProps) {
  const queryClient = useQueryClient();
  const { data } = useQuery(approverOffersQueryOptions(feedId));
  const answer = useAnswerApproverOffer(feedId);
  if (!data || data.items.length === 0) return null;

  const respond = (offer: ApproverOffer, what: "confirm" | "decline") =>
    answer.mutate(
      { personKey: offer.personKey, answer: what },
      {
        onSuccess: async () => {
          const name = shortAccountId(offer.curator);
          if (what === "decline") {
            toast.success("Offer declined", { description: `${name} stays a curator.` });
            return;
          }
          toast.success("Approver added", { description: `${name} is now an approver of #${feedId}.` });
          await queryClient.invalidateQueries({ queryKey: feedQueryOptions(feedId).queryKey });
          onConfirmed(await queryClient.fetchQuery(feedQueryOptions(feedId)));
        },
        onError: (error) => toast.error("Could not answer the offer", { description: error.message }),
      },
    );

  return (
    <section
      aria-labelledby="approver-offers-heading"
      className="flex flex-col gap-3 rounded-md border border-line p-4"
      data-testid="approver-offers"
    >
      <div>
        <h3 id="approver-offers-heading" className="text-sm font-semibold text-ink">
          Offered approver rights
        </h3>
        <p className="mt-1 text-sm text-muted">
          Trusted curators over the higher bar of the trust policy. Confirming adds them to the approvers (a
          save of this feed); declining changes nothing.
          {dirty ? " Save or discard your changes on this page first." : ""}
        </p>
      </div>
      <ul className="flex flex-col divide-y divide-line">
        {data.items.map((offer) => (
          <li
            key={offer.personKey}
            className="flex flex-wrap items-center justify-between gap-3 py-2.5"
            data-testid="approver-offer"
          >
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium break-all text-ink">{shortAccountId(offer.curator)}</span>
                <Badge tone={STATUS[offer.status].tone}>{STATUS[offer.status].label}</Badge>
              </p>
              <p className="text-sm text-muted">
                {offer.explanation} · offered <RelativeTime date={offer.offeredAt} />
              </p>
            </div>
            {offer.status === "offered" ? (
              <div className="flex gap-2">
                <Button
                  size="sm"
                  disabled={dirty || answer.isPending}
                  onClick={() => respond(offer, "confirm")}
                  aria-label={`Confirm ${shortAccountId(offer.curator)} as an approver`}
                >
                  <CheckIcon aria-hidden="true" />
                  Confirm
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={answer.isPending}
                  onClick={() => respond(offer, "decline")}
                  aria-label={`Decline the offer to ${shortAccountId(offer.curator)}`}
                >
                  <XIcon aria-hidden="true" />
                  Decline
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
