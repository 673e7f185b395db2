// The one piece of jsdom the server-rendering entry uses (the package ships no types).
declare module "jsdom" {
  export class JSDOM {
    constructor(html?: string);
    readonly window: { DOMParser: typeof DOMParser };
  }
}
