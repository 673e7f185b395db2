import { describe, expect, it } from "vitest";
import { emailModesOf } from "./email-rules.ts";

const email = { plugin: "@curate/email", config: {} };

describe("emailModesOf", () => {
  it("offers every item when the stream mails, the digest when an enabled recap does", () => {
    expect(emailModesOf({ outputs: { stream: { enabled: true, distribute: [email] } } })).toEqual(["every"]);
    expect(
      emailModesOf({
        outputs: {
          stream: { distribute: [{ plugin: "@curate/rss" }] },
          recap: [{ id: "weekly", distribute: [{ plugin: "@curatedotfun/email" }] }],
        },
      }),
    ).toEqual(["digest"]);
    expect(
      emailModesOf({ outputs: { stream: { distribute: [email] }, recap: { id: "w", distribute: [email] } } }),
    ).toEqual(["every", "digest"]);
  });

  it("offers nothing while email is off: no email step, a disabled stream or recap, no config", () => {
    expect(emailModesOf({ outputs: { stream: { enabled: false, distribute: [email] } } })).toEqual([]);
    expect(emailModesOf({ outputs: { recap: [{ enabled: false, distribute: [email] }, null] } })).toEqual([]);
    expect(emailModesOf({ outputs: { stream: { distribute: [{ plugin: "email-ish" }] } } })).toEqual([]);
    expect(emailModesOf(null)).toEqual([]);
  });
});
