import { z } from "zod";

/**
 * One social account a NEAR account connected on Crosspost, as Crosspost's API answers it (`data.accounts`): the
 * server checks a feed's Crosspost targets against them, the web's Connections page lists them.
 */
export const crosspostConnectedAccountSchema = z.looseObject({
  platform: z.string().max(50),
  userId: z.string().min(1).max(100),
  profile: z
    .looseObject({
      username: z.string().min(1).max(100),
      profileImageUrl: z.string().max(2000).nullish(),
    })
    .nullish(),
});
export type CrosspostConnectedAccount = z.infer<typeof crosspostConnectedAccountSchema>;
