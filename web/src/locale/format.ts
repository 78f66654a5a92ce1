// P17: a small subset of ICU message format, evaluated with the browser's Intl.
//   "{name}"                                   a parameter; numbers in the locale's digits
//   "{n, plural, =0 {none} one {# move} other {# moves}}"
//                                              plural category from Intl.PluralRules;
//                                              "#" is n in the locale's format
// Nothing else is interpreted: no HTML, no nesting beyond plural branches that
// themselves hold "{name}" parameters. A malformed template is returned as text,
// never thrown on (a translation typo must not break the page).
export type Params = Record<string, string | number>;

const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

export function formatNumber(n: number, locale: string): string {
  let f = numberFormats.get(locale);
  if (!f) {
    // Group digits only from five digits on (Elo 1500 stays "1500", not "1,500").
    try { f = new Intl.NumberFormat(locale, { useGrouping: 'min2' } as unknown as Intl.NumberFormatOptions); }
    catch { f = new Intl.NumberFormat(locale, { useGrouping: false }); }
    numberFormats.set(locale, f);
  }
  return f.format(n);
}

function pluralCategory(n: number, locale: string): Intl.LDMLPluralRule {
  let r = pluralRules.get(locale);
  if (!r) { r = new Intl.PluralRules(locale); pluralRules.set(locale, r); }
  return r.select(n);
}

// The index of the brace that closes the one at `open`, or -1.
function closing(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function plural(body: string, n: number, locale: string, params: Params): string | null {
  const branches = new Map<string, string>();
  let i = 0;
  while (i < body.length) {
    while (i < body.length && /\s/.test(body[i])) i++;
    if (i >= body.length) break;
    const m = /^(=\d+|zero|one|two|few|many|other)\s*\{/.exec(body.slice(i));
    if (!m) return null;
    const open = i + m[0].length - 1;
    const close = closing(body, open);
    if (close < 0) return null;
    branches.set(m[1], body.slice(open + 1, close));
    i = close + 1;
  }
  const chosen = branches.get(`=${n}`) ?? branches.get(pluralCategory(n, locale)) ?? branches.get('other');
  if (chosen === undefined) return null;
  return formatMessage(chosen.split('#').join(formatNumber(n, locale)), params, locale);
}

export function formatMessage(template: string, params: Params | undefined, locale: string): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) { out += template.slice(i); break; }
    out += template.slice(i, open);
    const close = closing(template, open);
    if (close < 0) { out += template.slice(open); break; }
    const inner = template.slice(open + 1, close);
    const m = /^\s*(\w+)\s*(?:,\s*plural\s*,([\s\S]*))?$/.exec(inner);
    const value = m ? params?.[m[1]] : undefined;
    if (!m || value === undefined) out += template.slice(open, close + 1);
    else if (m[2] !== undefined) {
      const n = typeof value === 'number' ? value : Number(value);
      out += (Number.isFinite(n) ? plural(m[2], n, locale, params!) : null) ?? template.slice(open, close + 1);
    } else out += typeof value === 'number' ? formatNumber(value, locale) : value;
    i = close + 1;
  }
  return out;
}

// The parameter names a template uses ("{side}", "{n, plural, …}" and those inside
// plural branches), for the test that every translation keeps them.
export function placeholders(template: string, names = new Set<string>()): Set<string> {
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) break;
    const close = closing(template, open);
    if (close < 0) break;
    const m = /^\s*(\w+)\s*(?:,\s*plural\s*,([\s\S]*))?$/.exec(template.slice(open + 1, close));
    if (m) {
      names.add(m[1]);
      if (m[2] !== undefined) {
        for (const b of m[2].matchAll(/(?:=\d+|zero|one|two|few|many|other)\s*\{/g)) {
          const bo = (b.index ?? 0) + b[0].length - 1;
          const bc = closing(m[2], bo);
          if (bc > bo) placeholders(m[2].slice(bo + 1, bc), names);
        }
      }
    }
    i = close + 1;
  }
  return names;
}
