# entry: print(main())
# Time zones set the C way: os.putenv (which os.environ does not see) then time.tzset().
import os
import time


def main():
    before = time.localtime(0).tm_gmtoff
    os.putenv("TZ", "Asia/Tokyo")
    time.tzset()
    return before, time.localtime(0).tm_gmtoff
