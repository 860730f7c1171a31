/**
 * The viewer's markdown renderer on hostile input: the HTML it returns may only hold the
 * tags and attributes the renderer itself writes, links only safe schemes, images only
 * inline rasters, and any HTML in the data comes out as text.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { highlightCode, languageForPath, renderMarkdown, safeHref } from "../../../src/export/html/viewer/markdown.ts";

const TAGS = new Set([
  "p", "br", "strong", "em", "del", "code", "pre", "a", "img", "ul", "ol", "li", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6",
  "hr", "table", "thead", "tbody", "tr", "th", "td", "span", "input",
]);
const ATTRIBUTES = new Set(["href", "title", "rel", "target", "src", "alt", "class", "align", "type", "checked", "disabled", "start"]);

/** Every tag and attribute in `html`, checked against what the renderer may write. */
function assertOnlySafeMarkup(html: string): void {
  for (const match of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    const [, tag, attrs] = match;
    assert.ok(TAGS.has(tag.toLowerCase()), `unexpected <${tag}> in ${html}`);
    for (const attr of attrs.matchAll(/([^\s=]+)(?:="([^"]*)")?/g)) {
      const name = attr[1].toLowerCase();
      if (name === "/") continue;
      assert.ok(ATTRIBUTES.has(name), `unexpected attribute ${name} in ${match[0]}`);
      if (name === "href") assert.ok(safeHref(attr[2].replace(/&amp;/g, "&")) !== null, `unsafe href in ${match[0]}`);
      if (name === "src") assert.match(attr[2], /^data:image\/(png|jpeg|gif|webp|bmp|avif);base64,[A-Za-z0-9+/=]*$/);
    }
  }
}

const CORPUS = [
  "</script><script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '<svg onload="alert(1)"><circle/></svg>',
  "<iframe src=\"https://evil.example\"></iframe>",
  "<style>body{display:none}</style><link rel=stylesheet href=https://evil.example/x.css>",
  '<a href="javascript:alert(1)">x</a>',
  "[click](javascript:alert(1)) [tab](java\tscript:alert(1)) [entity](javascript&#58;alert(1)) [upper](JAVASCRIPT:alert(1))",
  "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [vb](vbscript:msgbox) [file](file:///etc/passwd)",
  "![x](javascript:alert(1)) ![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+) ![remote](https://evil.example/pixel.png)",
  "[ref][a]\n\n[a]: javascript:alert(1)",
  "<javascript:alert(1)> <https://ok.example/x>",
  '```html\n<script>alert(1)</script>\n```',
  "`<img src=x onerror=alert(1)>`",
  "<div onclick=\"alert(1)\">\n\n*inside*\n\n</div>",
  "<!-- comment --><?php echo 1; ?><![CDATA[x]]>",
  '[x](https://ok.example "a\\" onmouseover=\\"alert(1)")',
  "| a | b |\n|:-:|--:|\n| <b>x</b> | [y](javascript:z) |",
  "- [x] done\n- [ ] todo",
];

describe("renderMarkdown()", () => {
  for (const text of CORPUS) {
    it(`renderMarkdown() writes only safe markup for ${JSON.stringify(text.slice(0, 40))}`, () => {
      const html = renderMarkdown(text);
      assertOnlySafeMarkup(html);
      assert.doesNotMatch(html, /<(script|style|iframe|svg|object|embed|link|meta|form)/i);
    });
  }

  it("renderMarkdown() shows HTML from the data as text", () => {
    assert.equal(renderMarkdown("<b>bold</b>"), "<p>&lt;b&gt;bold&lt;/b&gt;</p>\n");
    assert.match(renderMarkdown("</script><script>alert(1)</script>"), /&lt;\/script&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  it("renderMarkdown() keeps safe links and inline raster images, and turns remote images into links", () => {
    const html = renderMarkdown("[docs](https://example.com/a?b=1&c=2) ![dot](data:image/png;base64,iVBORw0KGgo=) ![r](https://e.example/p.png)");
    assert.match(html, /<a href="https:\/\/example\.com\/a\?b=1&amp;c=2" rel="noopener noreferrer nofollow" target="_blank">docs<\/a>/);
    assert.match(html, /<img src="data:image\/png;base64,iVBORw0KGgo=" alt="dot">/);
    assert.match(html, /<a href="https:\/\/e\.example\/p\.png"[^>]*>\[image: r\]<\/a>/);
    assert.doesNotMatch(html, /<img src="https/);
  });

  it("renderMarkdown() highlights fenced code by language", () => {
    assert.match(renderMarkdown("```ts\nconst a = 1;\n```"), /<span class="hljs-keyword">const<\/span>/);
  });
});

describe("safeHref()", () => {
  const table: [string, string | null][] = [
    ["https://a.example", "https://a.example"],
    ["mailto:a@b.example", "mailto:a@b.example"],
    ["#entry-1", "#entry-1"],
    ["docs/readme.md", "docs/readme.md"],
    ["javascript:alert(1)", null],
    [" java\nscript:alert(1)", null],
    ["\u0000javascript:alert(1)", null],
    ["data:text/html,x", null],
    ["//evil.example/x", null],
    ["\\\\evil.example", null],
    ["", null],
  ];
  for (const [href, expected] of table) it(`safeHref(${JSON.stringify(href)}) is ${JSON.stringify(expected)}`, () => assert.equal(safeHref(href), expected));
});

describe("highlightCode()", () => {
  it("escapes code in any language, known or not", () => {
    assert.doesNotMatch(highlightCode("<script>alert(1)</script>", "xml"), /<script/);
    assert.equal(highlightCode("<b>", "no-such-language"), "&lt;b&gt;");
    assert.equal(highlightCode("<b>"), "&lt;b&gt;");
  });
  it("picks a language from a file path", () => {
    assert.equal(languageForPath("src/a.ts"), "typescript");
    assert.equal(languageForPath("Dockerfile"), "dockerfile");
    assert.equal(languageForPath("notes.unknown"), undefined);
  });
});
