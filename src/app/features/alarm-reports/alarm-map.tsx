// The alarm location map (spec §2: height 200 px, zoom level 13, a link to the what3words page).
// Leaflet with a configurable tile server: VITE_MAP_TILE_URL (default OpenStreetMap's standard
// tiles) and VITE_MAP_ATTRIBUTION, read at build time (decision "The alarm map is Leaflet with a build-time tile
// server and a drawn fallback", docs/decisions/alarm-reports.md). When tiles cannot be reached
// (an offline machine, a blocked tile server, the CSP) the map falls back to a drawn position: a
// marker on a plain grid with the coordinates written out, so the position is never lost. The
// printable report always uses the drawn position (no live map in print).
import { useEffect, useRef, useState } from 'react';
import 'leaflet/dist/leaflet.css';
import { formatCoordinates, what3wordsUrl } from './alarm-format';

export const MAP_HEIGHT = 200;
export const MAP_ZOOM = 13;
export const TILE_URL: string = import.meta.env.VITE_MAP_TILE_URL || 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const TILE_ATTRIBUTION: string = import.meta.env.VITE_MAP_ATTRIBUTION || '&copy; OpenStreetMap contributors';
/** No tile within this time counts as unreachable. */
const TILE_TIMEOUT_MS = 5000;

export type MapPoint = { Latitude?: number | null; Longitude?: number | null; W3WAddress?: string | null; GoogleApiAddress?: string | null };

const hasPoint = (p: MapPoint | null | undefined): p is MapPoint & { Latitude: number; Longitude: number } =>
  typeof p?.Latitude === 'number' && typeof p.Longitude === 'number' && Number.isFinite(p.Latitude) && Number.isFinite(p.Longitude);

/** The drawn position: a marker in the middle of a grid, with the coordinates. Used offline and in print. */
export function DrawnPosition({ location, height = MAP_HEIGHT }: { location: MapPoint | null | undefined; height?: number }) {
  const coords = formatCoordinates(location?.Latitude, location?.Longitude);
  return (
    <div className="ar-map ar-map--drawn" style={{ height }} role="img" aria-label={`Alarm position ${coords}`} data-testid="alarm-map-drawn">
      <svg className="ar-map__pin" viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
        <circle cx="32" cy="40" r="22" fill="#e5484d" fillOpacity="0.15" stroke="#e5484d" strokeOpacity="0.45" />
        <path d="M32 40 l-9 -20 a12 12 0 1 1 18 0 z" fill="#e5484d" stroke="#fff" strokeWidth="2" />
        <circle cx="32" cy="12" r="4" fill="#fff" />
      </svg>
      <span className="ar-map__coords">{coords}</span>
    </div>
  );
}

export function AlarmMap({ location }: { location: MapPoint | null | undefined }) {
  const el = useRef<HTMLDivElement>(null);
  const [offline, setOffline] = useState(false);
  const lat = location?.Latitude;
  const lng = location?.Longitude;
  const point = hasPoint(location);

  useEffect(() => {
    if (!point || offline || !el.current || lat == null || lng == null) return;
    let disposed = false;
    let cleanup = () => {};
    void import('leaflet').then(({ default: L }) => {
      if (disposed || !el.current) return;
      const map = L.map(el.current, { zoomControl: true, attributionControl: true, scrollWheelZoom: false }).setView([lat, lng], MAP_ZOOM);
      let loaded = false;
      const layer = L.tileLayer(TILE_URL, { attribution: TILE_ATTRIBUTION, maxZoom: 19 });
      layer.on('tileload', () => {
        loaded = true;
      });
      layer.on('tileerror', () => {
        if (!loaded) setOffline(true);
      });
      layer.addTo(map);
      L.circleMarker([lat, lng], { radius: 8, color: '#e5484d', fillColor: '#e5484d', fillOpacity: 0.6 }).addTo(map);
      const timer = setTimeout(() => !loaded && setOffline(true), TILE_TIMEOUT_MS);
      cleanup = () => {
        clearTimeout(timer);
        map.remove();
      };
    });
    return () => {
      disposed = true;
      cleanup();
    };
  }, [point, offline, lat, lng]);

  const w3w = what3wordsUrl(location?.W3WAddress);
  return (
    <div className="ar-map-box">
      {!point ? (
        <div className="ar-map ar-map--none" style={{ height: MAP_HEIGHT }}>
          No position
        </div>
      ) : offline ? (
        <DrawnPosition location={location} />
      ) : (
        <div ref={el} className="ar-map" style={{ height: MAP_HEIGHT }} data-testid="alarm-map" aria-label="Alarm location map" />
      )}
      {w3w && (
        <a href={w3w} target="_blank" rel="noreferrer noopener" className="ar-w3w">
          ///{location?.W3WAddress?.replace(/^\/+/, '')}
        </a>
      )}
    </div>
  );
}
