import { describe, expect, it } from "vitest";
import { avatarColour, hueOf, initialsOf } from "./avatar";

describe("initialsOf", () => {
  it("takes the first letters of the first two words", () => {
    expect(initialsOf("jane_doe")).toBe("JD");
    expect(initialsOf("@web3 news")).toBe("WN");
    expect(initialsOf("CryptoGrant Wire")).toBe("CG");
  });

  it("uses one letter for a single word and a question mark for nothing usable", () => {
    expect(initialsOf("curatedotfun")).toBe("C");
    expect(initialsOf("__")).toBe("?");
  });
});

describe("avatar colour", () => {
  it("is stable per name, ignores case and stays within the hue circle", () => {
    expect(hueOf("Alice")).toBe(hueOf("alice"));
    expect(hueOf("alice")).not.toBe(hueOf("bob"));
    expect(hueOf("a very long name indeed")).toBeGreaterThanOrEqual(0);
    expect(hueOf("a very long name indeed")).toBeLessThan(360);
    expect(avatarColour("alice")).toBe(`oklch(0.5 0.13 ${hueOf("alice")})`);
  });
});
