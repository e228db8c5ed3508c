import fs from 'node:fs';
import { createRequire } from 'node:module';
import { INDIA_STATES } from '@campus/protocol';

/**
 * Which Indian state a college is in, from a place its name or domain names. The places are the districts
 * of `india-state-district` (772 districts of the 36 states and union territories, keyed by vehicle-plate
 * style codes: only Telangana's TG differs from ISO's TS), the states' own names, and the few big cities
 * whose names are not a district's (Bengaluru, Bombay, Madras, Kharagpur…). A place that is a district of
 * two states (Aurangabad, Bilaspur, Hamirpur…) decides nothing.
 */
const PACKAGE_TO_ISO: Record<string, string> = { TG: 'TS' };

const CITIES: Record<string, string[]> = {
  KA: [
    'Bengaluru',
    'Bangalore',
    'Mysuru',
    'Mysore',
    'Mangalore',
    'Mangaluru',
    'Manipal',
    'Surathkal',
    'Belagavi',
    'Hubli',
  ],
  MH: ['Mumbai', 'Bombay', 'Pune', 'Poona', 'Navi Mumbai', 'Lonavala', 'Kopargaon'],
  TN: ['Chennai', 'Madras', 'Trichy', 'Tiruchirappalli', 'Vellore', 'Coimbatore', 'Madurai'],
  WB: ['Kolkata', 'Calcutta', 'Kharagpur', 'Durgapur', 'Shibpur', 'Siliguri'],
  DL: ['Delhi', 'New Delhi'],
  TS: ['Hyderabad', 'Secunderabad', 'Warangal'],
  KL: ['Thiruvananthapuram', 'Trivandrum', 'Kochi', 'Cochin', 'Calicut', 'Kozhikode'],
  UP: ['Noida', 'Greater Noida', 'Kanpur', 'Lucknow', 'Varanasi', 'Banaras', 'Allahabad', 'Prayagraj'],
  HR: ['Gurgaon', 'Gurugram', 'Faridabad', 'Sonipat', 'Kurukshetra'],
  RJ: ['Pilani', 'Jaipur', 'Jodhpur', 'Kota', 'Udaipur'],
  UK: ['Roorkee', 'Dehradun', 'Pantnagar'],
  OD: ['Bhubaneswar', 'Rourkela', 'Cuttack', 'Orissa'],
  AP: ['Visakhapatnam', 'Vizag', 'Vijayawada', 'Tirupati', 'Guntur'],
  GJ: ['Ahmedabad', 'Gandhinagar', 'Vadodara', 'Baroda', 'Surat', 'Anand'],
  MP: ['Bhopal', 'Indore', 'Gwalior', 'Jabalpur'],
  JH: ['Ranchi', 'Dhanbad', 'Jamshedpur'],
  AS: ['Guwahati', 'Silchar', 'Tezpur'],
  PY: ['Pondicherry', 'Puducherry'],
  JK: ['Srinagar', 'Jammu'],
  HP: ['Shimla', 'Mandi'],
  PB: ['Ludhiana', 'Patiala', 'Amritsar', 'Mohali'],
  CG: ['Raipur', 'Bhilai'],
  BR: ['Patna'],
};

const norm = (s: string) =>
  ` ${s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim()} `;

interface Place {
  /** Normalized with a space on each side, for whole-word matching. */
  match: string;
  display: string;
  state: string;
  /** A city or district (a state's own name is not a city). */
  isCity: boolean;
}

function districtVariants(d: string): string[] {
  const base = d.trim();
  const out = new Set([base]);
  const noSuffix = base.replace(/\s+(district|urban|rural|city|suburban|metropolitan)$/i, '').trim();
  if (noSuffix.length >= 4) out.add(noSuffix);
  return [...out];
}

let cached: Place[] | undefined;
/** The places, built once (the package's JSON is read from node_modules, not bundled). */
export function indiaPlaces(): Place[] {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const dataFile = require.resolve('india-state-district/dist/data/data.json');
  const data = JSON.parse(fs.readFileSync(dataFile, 'utf8')) as Record<string, string[]>;
  const byName = new Map<string, Place[]>();
  const add = (display: string, state: string, isCity: boolean) => {
    const match = norm(display);
    if (match.trim().length < 3) return;
    const list = byName.get(match) ?? [];
    if (!list.some((p) => p.state === state)) list.push({ match, display, state, isCity });
    byName.set(match, list);
  };
  for (const [code, districts] of Object.entries(data)) {
    const state = PACKAGE_TO_ISO[code] ?? code;
    for (const d of districts) for (const v of districtVariants(d)) add(v, state, true);
  }
  for (const [state, cities] of Object.entries(CITIES)) for (const c of cities) add(c, state, true);
  const places: Place[] = [];
  for (const list of byName.values()) if (list.length === 1) places.push(list[0]!);
  // A state's own name wins over a district of the same name elsewhere.
  for (const s of INDIA_STATES) {
    const match = norm(s.name);
    const i = places.findIndex((p) => p.match === match);
    if (i >= 0) places.splice(i, 1);
    places.push({ match, display: s.name, state: s.code, isCity: false });
  }
  cached = places;
  return places;
}

/**
 * The state (and city, when a city or district says it) of an Indian college: the place named last in its
 * name ("…, Pune"), the longest on a tie; failing that, the longest place a domain label is, starts or
 * ends with (`nagpur.ac.in`, `mitmysore.in`).
 */
export function inferIndiaState(
  name: string,
  domains: readonly string[],
): { stateCode: string; city: string | null } | null {
  const places = indiaPlaces();
  const text = norm(name);
  let best: { place: Place; at: number } | undefined;
  for (const place of places) {
    const at = text.lastIndexOf(place.match);
    if (at < 0) continue;
    if (!best || at + place.match.length > best.at + best.place.match.length) best = { place, at };
  }
  if (!best) {
    // A domain label that is a place, or starts or ends with one of 5 letters or more (mitmysore.in).
    const labels = domains.flatMap((d) => d.split('.').slice(0, -1));
    for (const place of places) {
      const word = place.match.trim().replace(/ /g, '');
      const hit = labels.some(
        (l) =>
          l === word ||
          (word.length >= 5 && l.length > word.length && (l.startsWith(word) || l.endsWith(word))),
      );
      if (hit && (!best || word.length > best.place.match.length)) best = { place, at: 0 };
    }
  }
  if (!best) return null;
  if (!best.place.isCity) {
    // "…, Mumbai, Maharashtra": the state is named last, the city before it.
    const state = best.place.state;
    const city = places
      .filter((p) => p.isCity && p.state === state && text.includes(p.match))
      .sort((a, b) => text.lastIndexOf(b.match) - text.lastIndexOf(a.match))[0];
    if (city) return { stateCode: state, city: city.display };
  }
  return { stateCode: best.place.state, city: best.place.isCity ? best.place.display : null };
}

/** India's state code from a code (`MH`, `IN-MH`) or a name (`Maharashtra`, `Orissa`), if it is one. */
export function indiaStateCode(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const t = raw.trim();
  const code = t.toUpperCase().replace(/^IN-/, '');
  const iso = PACKAGE_TO_ISO[code] ?? code;
  if (INDIA_STATES.some((s) => s.code === iso)) return iso;
  const match = norm(t);
  const state = INDIA_STATES.find((s) => norm(s.name) === match);
  if (state) return state.code;
  const place = indiaPlaces().find((p) => !p.isCity && p.match === match);
  if (place) return place.state;
  if (match === ' orissa ') return 'OD';
  if (match === ' pondicherry ') return 'PY';
  if (match === ' new delhi ' || match === ' nct of delhi ') return 'DL';
  return null;
}
