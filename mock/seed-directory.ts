/** Seeded reference data: carriers, the client's corporate account, districts and known places. */
import type { Directory } from './directory.ts';
import type { IdFactory } from './ids.ts';
import type { JsonObject } from './json.ts';
import type { Ref } from './seed-refs.ts';

export interface Place {
  addressText: string;
  locationName: string;
  latitude: number;
  longitude: number;
}

export const places: readonly Place[] = [
  {
    addressText: 'Trafford Park, Manchester M17 1PA',
    locationName: 'Trafford Park DC',
    latitude: 53.4631,
    longitude: -2.3177,
  },
  {
    addressText: 'Hams Hall Distribution Park, Coleshill B46 1AL',
    locationName: 'Hams Hall',
    latitude: 52.5205,
    longitude: -1.7081,
  },
  {
    addressText: 'DIRFT, Crick, Northampton NN6 7GX',
    locationName: 'DIRFT Rail Terminal',
    latitude: 52.3504,
    longitude: -1.1839,
  },
  {
    addressText: 'Avonmouth Docks, Bristol BS11 9AT',
    locationName: 'Avonmouth Docks',
    latitude: 51.5033,
    longitude: -2.696,
  },
  {
    addressText: 'Port of Tilbury, Tilbury RM18 7EH',
    locationName: 'Tilbury Port',
    latitude: 51.4568,
    longitude: 0.3551,
  },
  {
    addressText: 'Eurocentral, Motherwell ML1 4UF',
    locationName: 'Eurocentral Hub',
    latitude: 55.8455,
    longitude: -3.967,
  },
  {
    addressText: 'Leeds Valley Park, Leeds LS10 1AB',
    locationName: 'Leeds Valley Park',
    latitude: 53.75,
    longitude: -1.53,
  },
  {
    addressText: 'Team Valley Trading Estate, Gateshead NE11 0NQ',
    locationName: 'Team Valley',
    latitude: 54.933,
    longitude: -1.603,
  },
];

export function locationOf(place: Place, ref: Ref, n: number): JsonObject {
  return {
    ...place,
    locationId: ref('location', n),
    externalId: `LOC-${String(1000 + n)}`,
    timezone: 'Europe/London',
    properties: null,
  };
}

const districtRows = [
  ['Greater Manchester', 'North West', 53.48, -2.24],
  ['West Midlands', 'West Midlands', 52.48, -1.89],
  ['Northamptonshire', 'East Midlands', 52.24, -0.9],
  ['Bristol', 'South West', 51.45, -2.59],
  ['Thurrock', 'East of England', 51.48, 0.33],
  ['North Lanarkshire', 'Scotland', 55.86, -3.98],
  ['West Yorkshire', 'Yorkshire and the Humber', 53.8, -1.55],
  ['Tyne and Wear', 'North East', 54.97, -1.61],
  ['Greater London', 'London', 51.51, -0.13],
] as const;

export function seedDirectory(ids: IdFactory, ref: Ref): Directory {
  return {
    carriers: [
      { id: ref('carrier', 1), externalId: 'NHC-01', name: 'Northern Haulage Co' },
      { id: ref('carrier', 2), externalId: 'SVL-07', name: 'Severn Valley Logistics' },
      { id: ref('carrier', 3), externalId: 'HFS-22', name: 'Highland Freight Services' },
    ],
    corporate: {
      id: ref('corporate', 1),
      name: 'Albion Retail Group',
      subaccountId: ref('subaccount', 1),
      subaccountName: 'Albion Retail - Northern DC',
      subaccountIntegrationId: 'albion-ndc',
      depot: locationOf(places[0] as Place, ref, 0),
    },
    districts: districtRows.map(([name, region, latitude, longitude], n) => ({
      id: ref('district', n),
      name,
      region,
      latitude,
      longitude,
    })),
    newId: (kind) => ids.next(kind),
  };
}
