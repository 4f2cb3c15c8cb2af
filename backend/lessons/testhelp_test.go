package lessons

import "time"

func lesson2time() time.Time { return time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC) }
