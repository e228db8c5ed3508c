import { COLLEGE_COUNTRIES, isCollegeCountry, type CollegeCountryCode } from '@campus/protocol';
import type { CollegeRecord } from './records';
import { indiaStateCode, inferIndiaState } from './india-places';

export interface ParsedFile {
  records: CollegeRecord[];
  /** Rows left out, each with why (a country the picker does not offer, no name). */
  skipped: { row: number; reason: string }[];
}

/**
 * The importer's two formats, told apart by content: the university-domains JSON list (`[{ name, country,
 * alpha_two_code, "state-province", domains, web_pages }]`) and a CSV with a header row naming at least
 * `name`, `country` and `domains` (also `state`, `city`); CSV domains are separated by ';' or '|'. A
 * country is a code (`IN`) or a picker country's name (`India`). For India a state is a code (`MH`,
 * `IN-MH`) or a name; when none is given or known it is inferred from the name and domains, as for the
 * default data set.
 */
export function parseCollegeFile(text: string): ParsedFile {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  return trimmed.startsWith('[') ? parseUniversityDomains(trimmed) : parseCsv(trimmed);
}

function countryCode(raw: string | undefined | null): CollegeCountryCode | null {
  if (!raw) return null;
  const t = raw.trim();
  if (isCollegeCountry(t.toUpperCase())) return t.toUpperCase() as CollegeCountryCode;
  return COLLEGE_COUNTRIES.find((c) => c.name.toLowerCase() === t.toLowerCase())?.code ?? null;
}

function record(
  name: string,
  country: CollegeCountryCode,
  state: string | null,
  city: string | null,
  domains: string[],
): CollegeRecord {
  if (country !== 'IN')
    return { name, country, stateCode: null, stateName: state || null, city: city || null, domains };
  const code = indiaStateCode(state);
  const inferred = code ? null : inferIndiaState(name, domains);
  return {
    name,
    country,
    stateCode: code ?? inferred?.stateCode ?? null,
    stateName: null,
    city: city || inferred?.city || null,
    domains,
  };
}

interface UniversityDomainsEntry {
  name?: unknown;
  country?: unknown;
  alpha_two_code?: unknown;
  'state-province'?: unknown;
  domains?: unknown;
}
const str = (v: unknown) => (typeof v === 'string' ? v : null);

function parseUniversityDomains(text: string): ParsedFile {
  const data = JSON.parse(text) as unknown;
  if (!Array.isArray(data)) throw new Error('expected a JSON array of universities');
  const out: ParsedFile = { records: [], skipped: [] };
  data.forEach((entry: UniversityDomainsEntry, i) => {
    const name = str(entry?.name)?.trim();
    const country = countryCode(str(entry?.alpha_two_code)) ?? countryCode(str(entry?.country));
    if (!name) return out.skipped.push({ row: i + 1, reason: 'no name' });
    if (!country) return out.skipped.push({ row: i + 1, reason: 'country not offered by the picker' });
    const domains = Array.isArray(entry.domains)
      ? entry.domains.filter((d): d is string => typeof d === 'string')
      : [];
    out.records.push(record(name, country, str(entry['state-province']), null, domains));
  });
  return out;
}

/** RFC 4180 rows: quoted fields may hold commas, quotes ("") and line breaks. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim()));
}

function parseCsv(text: string): ParsedFile {
  const [header, ...rows] = csvRows(text);
  const columns = (header ?? []).map((h) => h.trim().toLowerCase());
  const at = (name: string) => columns.indexOf(name);
  if (at('name') < 0 || at('country') < 0)
    throw new Error('expected a CSV header with name, country, state, city, domains');
  const out: ParsedFile = { records: [], skipped: [] };
  rows.forEach((cells, i) => {
    const cell = (name: string) => (at(name) >= 0 ? (cells[at(name)] ?? '').trim() : '');
    const name = cell('name');
    const country = countryCode(cell('country'));
    if (!name) return out.skipped.push({ row: i + 2, reason: 'no name' });
    if (!country) return out.skipped.push({ row: i + 2, reason: 'country not offered by the picker' });
    const domains = cell('domains')
      .split(/[;|]/)
      .map((d) => d.trim())
      .filter(Boolean);
    out.records.push(record(name, country, cell('state') || null, cell('city') || null, domains));
  });
  return out;
}
