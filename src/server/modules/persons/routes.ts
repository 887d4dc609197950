import type { Api } from '../../http.js';

// TODO(foundation): filled in by its owner.
export function personRoutes(api: Api) {
  void api;
}
