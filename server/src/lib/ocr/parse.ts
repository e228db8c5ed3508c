import type { OcrResult } from '@campus/protocol';
import {
  CARD_TITLES,
  INSTITUTION_WORDS,
  LABEL_RULES,
  OTHER_PERSON_AFTER,
  OTHER_PERSON_BEFORE,
  type FieldName,
  type LabelRule,
} from './labels';

/**
 * Reads a student-ID card's fields from its recognised text: Indonesian KTM layouts (Nama, NIM / No.
 * Mahasiswa, Fakultas, Jurusan, Program Studi, the Universitas / Institut / Politeknik / Sekolah Tinggi line)
 * and English ones (Name, Student ID / Roll No / ID No, University / College / Institute, Department /
 * Course / Programme / Branch). A field not found is ''. Pure: the recognizer's text in, fields out.
 */
export function parseIdCardText(text: string): OcrResult {
  const lines = text
    .split(/\r?\n/)
    .map(normaliseLine)
    .filter((line) => /[A-Za-z0-9]/.test(line));
  const found = labelledValues(lines);
  const best = (field: FieldName) =>
    found.filter((c) => c.field === field && c.value).sort((a, b) => a.rank - b.rank || a.line - b.line)[0];

  const nama = best('nama') ?? orphanName(lines, best('nim'));
  const nim = best('nim');
  const jurusan = best('jurusan');
  const kampus = best('kampus');
  const labelLines = new Set(found.map((c) => c.line));
  return {
    nama: clip(fixNameCase(displayCase(cleanText(nama?.value ?? '', /[^\p{L}\s.,'-]/gu))), 200),
    nim: clip(nim ? cleanId(nim.value) : unlabelledId(lines, labelLines), 64),
    kampus: clip(
      displayCase(cleanText(kampus?.value ?? institutionLine(lines, labelLines), /[^\p{L}\d\s.,'&()-]/gu)),
      200,
    ),
    jurusan: clip(displayCase(cleanText(jurusan?.value ?? '', /[^\p{L}\d\s.,'&()/-]/gu)), 200),
  };
}

interface Candidate {
  field: FieldName;
  rank: number;
  value: string;
  line: number;
}

/** Separators OCR makes of a card's ':' (or the '.' some cards print), with the spaces around them. */
const SEPARATOR = /^\s*[:;=~|.,\-–—]+\s*/;

const MISREAD_SEPARATOR = /^\s*[1lI|!i]\s+(?=\S)/;

function normaliseLine(line: string): string {
  return line
    .replace(/[‘’`´]/g, "'")
    .replace(/[“”„]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

interface LabelHit {
  rule: LabelRule;
  start: number;
  end: number;
}

/** The earliest label in `text` (the longest one where several start together), or undefined. */
function firstLabel(text: string, requireSeparator: boolean): LabelHit | undefined {
  let hit: LabelHit | undefined;
  for (const rule of LABEL_RULES) {
    const match = rule.pattern.exec(text);
    if (!match) continue;
    // The pattern's first character may be the non-letter before the label.
    const lead = /^[^A-Za-z]/.test(match[0]) ? 1 : 0;
    const start = match.index + lead;
    const end = match.index + match[0].length;
    const hasSeparator = SEPARATOR.test(text.slice(end));
    // A weak label alone on its line ("Department", its value below) counts; "LOYOLA COLLEGE" does not.
    const aloneOnLine = text.slice(end).trim() === '' && !/[A-Za-z]/.test(text.slice(0, start));
    if ((rule.needsSeparator || requireSeparator) && !hasSeparator && !aloneOnLine) continue;
    if (!hit || start < hit.start || (start === hit.start && (end > hit.end || rule.rank < hit.rule.rank)))
      hit = { rule, start, end };
  }
  return hit;
}

/** Every "label: value" of the card; a label alone on its line takes the next line as its value. */
function labelledValues(lines: string[]): Candidate[] {
  const out: Candidate[] = [];
  lines.forEach((line, index) => {
    if (CARD_TITLES.test(line)) return;
    let rest = line;
    // After the first label of a line, only "label:" starts another value (values hold ordinary words).
    for (let hit = firstLabel(rest, false); hit; hit = firstLabel(rest, true)) {
      const before = rest.slice(0, hit.start);
      let value = rest.slice(hit.end);
      // A ':' read as a lone '1', 'l' or '|' ("ID No 1 22BCE6511") is the separator, not the value's start.
      value = SEPARATOR.test(value) ? value.replace(SEPARATOR, '') : value.replace(MISREAD_SEPARATOR, '');
      // Two columns read as one line ("NIM : 123 Fakultas : Teknik"): the value ends at the next label.
      const next = firstLabel(value, true);
      rest = next ? value.slice(next.start) : '';
      if (next) value = value.slice(0, next.start);
      value = value.trim();
      if (!value && !next) value = nextLineValue(lines, index);
      if (hit.rule.field === 'nama' && (OTHER_PERSON_BEFORE.test(before) || OTHER_PERSON_AFTER.test(value)))
        continue;
      out.push({ field: hit.rule.field, rank: hit.rule.rank, value, line: index });
    }
  });
  return out;
}

/**
 * The name when its label was lost (under a photo's edge, a fold): both layouts print the name right above
 * the number, so a ": value" line without a label just above the number's line is taken.
 */
function orphanName(lines: string[], nim: Candidate | undefined): Candidate | undefined {
  const line = nim ? lines[nim.line - 1] : undefined;
  if (!line || !/^[:;]\s*\p{L}/u.test(line) || firstLabel(line, false)) return undefined;
  return { field: 'nama', rank: 9, value: line.replace(SEPARATOR, ''), line: nim!.line - 1 };
}

function nextLineValue(lines: string[], index: number): string {
  const next = lines[index + 1];
  if (!next || CARD_TITLES.test(next) || firstLabel(next, false)) return '';
  return next;
}

/** The institution's name where the card prints it without a label (usually its heading). */
function institutionLine(lines: string[], labelLines: Set<number>): string {
  const index = lines.findIndex(
    (line, i) => !labelLines.has(i) && !CARD_TITLES.test(line) && INSTITUTION_WORDS.test(line),
  );
  return index < 0 ? '' : lines[index]!;
}

/** Keeps the characters a value can hold and drops stray marks at its ends ("Siti Kurniawan |"). */
function cleanText(value: string, disallowed: RegExp): string {
  return value
    .replace(disallowed, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.,'&/-]+|[\s,'&/-]+$/g, '')
    .trim();
}

const SMALL_WORDS = new Set(['of', 'and', 'the', 'for', 'in', 'at', 'dan', 'di', 'dari', 'untuk']);

/** An all-capitals heading ("UNIVERSITY OF MUMBAI") in the case students type ("University of Mumbai"). */
export function displayCase(value: string): string {
  if (/\p{Ll}/u.test(value) || (value.match(/\p{L}/gu) ?? []).length < 4) return value;
  return value
    .split(' ')
    .map((word, i) => {
      const lower = word.toLowerCase();
      if (i > 0 && SMALL_WORDS.has(lower)) return lower;
      // Acronyms have no vowel (ITB, UPN), are two letters (UI) or stand in brackets ("(ITS)"): keep them.
      const letters = word.replace(/\P{L}/gu, '');
      if (letters.length <= 2 || !/[AEIOUY]/.test(letters) || /^\(.*\)$/.test(word)) return word;
      return word.replace(/\p{L}+/gu, (part) => part[0]! + part.slice(1).toLowerCase());
    })
    .join(' ');
}

/**
 * "Sneha lyer": in a name whose words are capitalised, a word starting with a lower-case l followed by
 * lower-case letters is an I misread (names do not start in lower case; "bin", "binti" do not start with l).
 */
function fixNameCase(name: string): string {
  const words = name.split(' ');
  if (!words.some((w) => /^\p{Lu}/u.test(w))) return name;
  return words.map((w) => (/^l\p{Ll}/u.test(w) ? `I${w.slice(1)}` : w)).join(' ');
}

/** Letters OCR confuses with digits, as the digit a number would hold. */
const DIGIT_LOOKALIKES: Record<string, string> = { O: '0', o: '0', I: '1', l: '1', i: '1', '|': '1' };

/**
 * A student number: digits, sometimes letters (21BCE1234) and '/', '-', '.' (19/443567/TK/49071). Groups
 * split by a stray space are joined; a lone look-alike letter between digits is read as the digit.
 */
export function cleanId(value: string): string {
  const tokens = value.split(/\s+/).filter(Boolean);
  const start = tokens.findIndex((t) => /\d/.test(t));
  if (start < 0) return '';
  const kept: string[] = [];
  for (const token of tokens.slice(start)) {
    if (kept.length && !/\d/.test(token)) break;
    kept.push(token);
  }
  let id = kept
    .join('')
    .replace(/[^A-Za-z0-9/.|-]/g, '')
    .replace(/^[/.-]+|[/.-]+$/g, '');
  const letters = id.replace(/[^A-Za-z|]/g, '');
  if (letters.length <= 2 && [...letters].every((ch) => ch in DIGIT_LOOKALIKES) && /\d{4}/.test(id)) {
    id = id.replace(/[A-Za-z|]/g, (ch) => DIGIT_LOOKALIKES[ch]!);
  } else {
    id = id.replace(/(?<=\d)[OoIl|](?=\d)/g, (ch) => DIGIT_LOOKALIKES[ch]!);
  }
  return id.replace(/\|/g, '');
}

/** Without a readable label: the one long number on the card that is no date, phone or postcode. */
function unlabelledId(lines: string[], labelLines: Set<number>): string {
  const found: string[] = [];
  lines.forEach((line, i) => {
    if (labelLines.has(i) || /\b(?:telp|tel|phone|fax|hp|wa|valid|berlaku)\b/i.test(line)) return;
    for (const token of line.split(' ')) {
      const digitCount = token.replace(/\D/g, '').length;
      if (digitCount >= 7 && digitCount / token.length >= 0.7 && !/\d[/.-]\d{1,2}[/.-]\d/.test(token))
        found.push(cleanId(token));
    }
  });
  return found.length === 1 ? found[0]! : '';
}

function clip(value: string, max: number): string {
  return value.length <= max ? value : value.slice(0, max).trim();
}
