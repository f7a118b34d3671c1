package guidetest_test

import ()
