/**
 * The printed labels of student-ID cards, as OCR-tolerant patterns. Tesseract's usual misreads of these
 * fonts are folded in per letter (I ↔ l ↔ 1 ↔ |, O ↔ 0, m ↔ rn, S ↔ 5), and the spaces inside a label may
 * be lost or doubled ("RollNo", "Program  Studi"), so a label written plainly here still matches its noisy
 * readings.
 */

const LETTER: Record<string, string> = {
  i: '[iIl1|!íì]',
  l: '[lLI1|i]',
  o: '[oO0]',
  m: '(?:[mM]|rn|nn|rrn)',
  s: '[sS5$]',
  a: '[aA@4]',
  e: '[eE€]',
  u: '[uU]',
  n: '[nN]',
  d: '[dD]',
  t: '[tT]',
};

/** A label as written on the card → a pattern source (without anchors). */
export function tolerant(label: string): string {
  let out = '';
  for (const ch of label) {
    const lower = ch.toLowerCase();
    if (ch === ' ') out += '\\s*';
    else if (ch === '.') out += '\\.?';
    else if (ch === "'") out += "['’`]?";
    else if (LETTER[lower]) out += LETTER[lower];
    else if (/[a-z]/i.test(ch)) out += `[${lower}${ch.toUpperCase()}]`;
    else out += `\\${ch}`;
  }
  return out;
}

export type FieldName = 'nama' | 'nim' | 'jurusan' | 'kampus';

export interface LabelRule {
  field: FieldName;
  /** Lower wins: "Program Studi" over "Jurusan" over "Fakultas", "Department" over "Course". */
  rank: number;
  pattern: RegExp;
  /** Weak labels are ordinary words too ("Department of Physics"): they count only with a separator. */
  needsSeparator: boolean;
}

function rule(field: FieldName, rank: number, labels: string[], needsSeparator = false): LabelRule {
  // Not inside a word (a letter before it) and not the start of a longer word after it.
  const source = `(?:^|[^A-Za-z])(?:${labels.map(tolerant).join('|')})(?![A-Za-z])`;
  return { field, rank, pattern: new RegExp(source), needsSeparator };
}

/** Longer labels first inside a rule, so "Student ID No" is not cut at "Student ID". */
export const LABEL_RULES: LabelRule[] = [
  rule('nama', 0, [
    'Nama Lengkap',
    'Nama Mahasiswa',
    'Nama',
    'Student Name',
    'Name of Student',
    'Full Name',
    'Name',
  ]),
  rule('nim', 0, [
    'Nomor Induk Mahasiswa',
    'Nomor Pokok Mahasiswa',
    'No. Induk Mahasiswa',
    'No. Mahasiswa',
    'No. Induk',
    'NIM',
    'NPM',
    'NRP',
    'Student ID No.',
    'Student ID Number',
    'Student ID',
    'Student No.',
    'Roll Number',
    'Roll No.',
    'ID Number',
    'ID No.',
    'Registration Number',
    'Registration No.',
    'Reg. No.',
    'Enrollment No.',
    'Enrolment No.',
    'Admission No.',
  ]),
  rule('jurusan', 0, ['Program Studi', 'Prodi']),
  rule('jurusan', 1, ['Jurusan']),
  rule(
    'jurusan',
    2,
    ['Department', 'Dept.', 'Major', 'Branch', 'Discipline', 'Specialization', 'Specialisation'],
    true,
  ),
  rule('jurusan', 3, ['Programme', 'Program', 'Course'], true),
  rule('jurusan', 4, ['Fakultas', 'Faculty'], true),
  rule(
    'kampus',
    0,
    [
      'Perguruan Tinggi',
      'Kampus',
      'University',
      'Universitas',
      'College',
      'Institution',
      'Institute',
      'School',
    ],
    true,
  ),
];

/** A "Name" that is someone else's: "Father's Name", "Nama Ayah", "Nama Orang Tua" lines of many cards. */
const PEOPLE = ['Father', 'Mother', 'Guardian', 'Parent', 'Husband', 'Wife'].map(tolerant).join('|');
export const OTHER_PERSON_BEFORE = new RegExp(`(?:${PEOPLE})\\S*\\s*$`);
export const OTHER_PERSON_AFTER = new RegExp(
  `^\\s*(?:${['Ayah', 'Ibu', 'Orang Tua', 'Wali'].map(tolerant).join('|')}|${PEOPLE})(?![A-Za-z])`,
);

/** Words that make a line the institution's name when it has no label. */
export const INSTITUTION_WORDS = new RegExp(
  `(?:^|[^A-Za-z])(?:${[
    'Universitas',
    'Universiti',
    'University',
    'Institut',
    'Institute',
    'Politeknik',
    'Polytechnic',
    'Sekolah Tinggi',
    'Akademi',
    'Academy',
    'College',
  ]
    .map(tolerant)
    .join('|')})(?![A-Za-z])`,
);

/** Card titles and the like, never a field's value. */
export const CARD_TITLES = new RegExp(
  [
    'Kartu Tanda Mahasiswa',
    'Kartu Mahasiswa',
    'Student Identity Card',
    'Student ID Card',
    'Identity Card',
    'ID Card',
  ]
    .map(tolerant)
    .join('|'),
);
