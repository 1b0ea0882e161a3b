/*
 * How render(…, { plainText: true }) writes a mail as text (html-to-text options): the words of the HTML
 * mail without its decoration — headings as they are (not upper case), lists with "- " (a list of links without), every link as
 * "label: URL" (a text mail shows the address), the footer after a "--" line. Blocks marked
 * data-skip-in-text (the partner's name above the heading, a button's written-out link) are left out.
 */

/** The part of html-to-text's builder the formatters below use. */
interface TextBuilder {
  openBlock(options: { leadingLineBreaks: number }): void;
  closeBlock(options: { trailingLineBreaks: number }): void;
  addInline(text: string, options?: { noWordTransform?: boolean }): void;
  addLineBreak(): void;
}

interface Element {
  attribs: Record<string, string | undefined>;
  children: unknown[];
}

type Walk = (nodes: unknown[], builder: TextBuilder) => void;

const blocks = { leadingLineBreaks: 2, trailingLineBreaks: 2 };

export const plainTextOptions = {
  formatters: {
    labelledLink(elem: Element, walk: Walk, builder: TextBuilder) {
      walk(elem.children, builder);
      builder.addInline(`: ${elem.attribs.href ?? ''}`, { noWordTransform: true });
    },
    footer(elem: Element, walk: Walk, builder: TextBuilder) {
      builder.openBlock({ leadingLineBreaks: 2 });
      builder.addInline('--', { noWordTransform: true });
      builder.addLineBreak();
      walk(elem.children, builder);
      builder.closeBlock({ trailingLineBreaks: 1 });
    },
  },
  selectors: [
    { selector: 'h1', options: { ...blocks, uppercase: false } },
    { selector: 'h2', options: { ...blocks, uppercase: false } },
    { selector: 'ul', options: { ...blocks, itemPrefix: '- ' } },
    // A list of links is a line per link, without the bullet.
    { selector: 'ul[data-text=links]', format: 'block', options: blocks },
    { selector: 'li[data-text=line]', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'a', format: 'labelledLink' },
    { selector: '[data-text=footer]', format: 'footer' },
  ],
};
