// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { isTypingTarget, nextDecidableIndex, resolveTriageKey, type TriageKey } from "./triage";

afterEach(() => {
  document.body.innerHTML = "";
});

const press = (key: string, extra: Partial<TriageKey> = {}): TriageKey => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  defaultPrevented: false,
  target: document.body,
  ...extra,
});

const state = { count: 5, index: 2, canDecide: true };

describe("resolveTriageKey", () => {
  it("moves with j and k, stopping at both ends, and starts at the first item", () => {
    expect(resolveTriageKey(press("j"), state)).toEqual({ type: "move", index: 3 });
    expect(resolveTriageKey(press("k"), state)).toEqual({ type: "move", index: 1 });
    expect(resolveTriageKey(press("j"), { ...state, index: 4 })).toEqual({ type: "move", index: 4 });
    expect(resolveTriageKey(press("k"), { ...state, index: 0 })).toEqual({ type: "move", index: 0 });
    expect(resolveTriageKey(press("j"), { ...state, index: null })).toEqual({ type: "move", index: 0 });
    expect(resolveTriageKey(press("k"), { ...state, index: null })).toEqual({ type: "move", index: 0 });
  });

  it("approves, rejects and opens the note of the focused item when it can be decided", () => {
    expect(resolveTriageKey(press("a"), state)).toEqual({ type: "approve", index: 2 });
    expect(resolveTriageKey(press("r"), state)).toEqual({ type: "reject", index: 2 });
    expect(resolveTriageKey(press("n"), state)).toEqual({ type: "note", index: 2 });
    expect(resolveTriageKey(press("x"), state)).toEqual({ type: "select", index: 2 });
  });

  it("leaves decision keys alone with no focused item or one that cannot be decided", () => {
    expect(resolveTriageKey(press("a"), { ...state, index: null })).toBeNull();
    expect(resolveTriageKey(press("r"), { ...state, canDecide: false })).toBeNull();
    expect(resolveTriageKey(press("n"), { ...state, canDecide: false })).toBeNull();
    expect(resolveTriageKey(press("x"), { ...state, canDecide: false })).toBeNull();
  });

  it("ignores modified keys, handled keys, other keys and an empty list", () => {
    for (const modifier of ["altKey", "ctrlKey", "metaKey", "shiftKey"] as const) {
      expect(resolveTriageKey(press("a", { [modifier]: true }), state)).toBeNull();
    }
    expect(resolveTriageKey(press("j", { defaultPrevented: true }), state)).toBeNull();
    expect(resolveTriageKey(press("q"), state)).toBeNull();
    expect(resolveTriageKey(press("j"), { ...state, count: 0, index: null })).toBeNull();
  });

  it("ignores keys typed into fields and dialogs", () => {
    document.body.innerHTML = `
      <input id="search" /><textarea id="note"></textarea><select id="status"></select>
      <div contenteditable="true" id="editor"><span id="inside"></span></div>
      <div role="dialog"><button id="dialog-button"></button></div>
      <button id="approve"></button>`;
    for (const id of ["search", "note", "status", "inside", "dialog-button"]) {
      const target = document.getElementById(id);
      expect(isTypingTarget(target), id).toBe(true);
      expect(resolveTriageKey(press("a", { target }), state), id).toBeNull();
    }
    const button = document.getElementById("approve");
    expect(isTypingTarget(button)).toBe(false);
    expect(resolveTriageKey(press("a", { target: button }), state)).toEqual({ type: "approve", index: 2 });
  });
});

describe("nextDecidableIndex", () => {
  const pending = [true, false, true, false, false];
  it("finds the next item still to decide after the current one, or none", () => {
    expect(nextDecidableIndex(5, 0, (index) => pending[index])).toBe(2);
    expect(nextDecidableIndex(5, 2, (index) => pending[index])).toBeNull();
  });
});
