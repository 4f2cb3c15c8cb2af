// The star demo the card runs when it opens: the first starter lesson's text, bundled at build time.

import star from '../../../backend/lessons/starter/1 star.py?raw';

export const STAR_DEMO: string = star;
