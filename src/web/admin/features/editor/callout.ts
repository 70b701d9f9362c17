import { Node, mergeAttributes } from '@tiptap/core';

export const CALLOUT_VARIANTS = ['info', 'warning', 'tip'] as const;
export type CalloutVariant = (typeof CALLOUT_VARIANTS)[number];

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    callout: {
      /** Wraps the selected blocks in a callout, or changes the variant of the callout they are in. */
      setCallout: (variant: CalloutVariant) => ReturnType;
      unsetCallout: () => ReturnType;
    };
  }
}

const variantOf = (className: string): CalloutVariant =>
  CALLOUT_VARIANTS.find((variant) => className.split(/\s+/).includes(`callout-${variant}`)) ?? 'info';

/**
 * `<div class="callout callout-info|warning|tip">` around blocks: the only classes on a div the server's sanitiser
 * keeps, and the ones the public stylesheet draws.
 */
export const Callout = Node.create({
  name: 'callout',
  group: 'block',
  content: 'block+',
  defining: true,

  addAttributes() {
    return {
      variant: {
        default: 'info' satisfies CalloutVariant,
        parseHTML: (element) => variantOf(element.className),
        renderHTML: (attributes) => ({ class: `callout callout-${attributes.variant as string}` }),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'div.callout' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes(HTMLAttributes), 0];
  },

  addCommands() {
    return {
      setCallout:
        (variant) =>
        ({ editor, commands }) =>
          editor.isActive(this.name)
            ? commands.updateAttributes(this.name, { variant })
            : commands.wrapIn(this.name, { variant }),
      unsetCallout:
        () =>
        ({ commands }) =>
          commands.lift(this.name),
    };
  },
});
