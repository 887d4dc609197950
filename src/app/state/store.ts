import { createStore } from 'jotai';

/** The one jotai store: React reads it through <Provider store={appStore}>, commands read it directly. */
export const appStore = createStore();
