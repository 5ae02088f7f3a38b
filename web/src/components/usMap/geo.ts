import { feature } from 'topojson-client';
import states from 'us-atlas/states-10m.json';
import { US_STATES } from './usStates';

type Ring = [number, number][];
type Geometry = { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] };

export interface StateFeature {
  type: 'Feature';
  properties: { name: string };
  geometry: Geometry;
}

export interface StatesGeoJson {
  type: 'FeatureCollection';
  features: StateFeature[];
}

const DRAWN = new Set(Object.values(US_STATES));

/**
 * The Aleutians run past 180° into positive longitudes; drawn as they are, Alaska would span the whole world
 * and shrink everything else. Moving those rings by −360° keeps Alaska in one piece.
 */
function westOfDateLine(ring: Ring): Ring {
  return ring.some(([lng]) => lng > 0) ? ring.map(([lng, lat]) => [lng - 360, lat]) : ring;
}

function alaskaInOnePiece(geometry: Geometry): Geometry {
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: geometry.coordinates.map(westOfDateLine) }
    : {
        type: 'MultiPolygon',
        coordinates: geometry.coordinates.map((polygon) => polygon.map(westOfDateLine)),
      };
}

/** The states of us-atlas (drawn offline, no tile service) as GeoJSON named by state, ready for ECharts. */
export function statesGeoJson(): StatesGeoJson {
  const all = feature(states, states.objects.states);
  return {
    type: 'FeatureCollection',
    features: all.features
      .filter((f) => DRAWN.has(f.properties.name))
      .map((f) => {
        const geometry = f.geometry as Geometry;
        return {
          type: 'Feature',
          properties: { name: f.properties.name },
          geometry: f.properties.name === 'Alaska' ? alaskaInOnePiece(geometry) : geometry,
        };
      }),
  };
}

/**
 * Alaska, Hawaii and Puerto Rico drawn as insets (ECharts' specialAreas: the shape moved into a box given in
 * the map's own longitude/latitude), so the map frames the continental US.
 */
export const INSETS = {
  Alaska: { left: -131, top: 25, width: 15 },
  Hawaii: { left: -110, top: 28, width: 5 },
  'Puerto Rico': { left: -76, top: 26, width: 2 },
} as const;
