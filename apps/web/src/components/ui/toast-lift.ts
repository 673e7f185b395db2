/** A CSS variable: how far above the bottom edge toasts sit (set while something sticks to the bottom). */
export const TOAST_LIFT_VARIABLE = "--curate-toast-lift";
