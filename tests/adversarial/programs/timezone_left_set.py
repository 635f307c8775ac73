# entry: print(main())
# A lesson on time zones sets TZ and calls time.tzset(). The runner puts os.environ back, but the C
# library's zone stays what tzset last read: the next run must see the zone this run saw at its start.
import os
import time


def main():
    before = time.localtime(0).tm_hour, time.strftime("%Z", time.localtime(0))
    os.environ["TZ"] = "Asia/Tokyo"
    time.tzset()
    return before, time.localtime(0).tm_hour
