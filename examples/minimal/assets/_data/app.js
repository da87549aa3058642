const clock=document.getElementById("clock");function tick(t){t.textContent=`It is ${new Date().toLocaleTimeString()} in your browser.`}clock&&(tick(clock),setInterval(()=>tick(clock),1e3));
