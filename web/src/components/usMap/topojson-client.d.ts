// topojson-client ships no types; this is the one function the map uses.
declare module 'topojson-client' {
  export function feature(
    topology: unknown,
    object: unknown,
  ): {
    type: 'FeatureCollection';
    features: Array<{ type: 'Feature'; id?: string; properties: { name: string }; geometry: unknown }>;
  };
}
