// Entry of the harness script that defines window.go / window.runtime over the
// fake backend before the app's bundle loads (tests/screenshots.mjs builds it).

import type { WailsGlobals } from '../lib/backend';
import { installFakeWails, type FakeOptions } from './fakeBackend';

const w = window as unknown as WailsGlobals & { __KIDCODER_FAKE__?: FakeOptions };
installFakeWails(w, w.__KIDCODER_FAKE__ ?? {});
